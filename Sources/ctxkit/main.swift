#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(await CtxkitCommand.main(Array(CommandLine.arguments.dropFirst())).rawValue)
