#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(await SchemaCostCommand.main(Array(CommandLine.arguments.dropFirst())).rawValue)
