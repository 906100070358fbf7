#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(TokcountCommand.main(Array(CommandLine.arguments.dropFirst())).rawValue)
