#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(await TokcountCommand.main(Array(CommandLine.arguments.dropFirst())).rawValue)
