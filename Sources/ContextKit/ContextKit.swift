@_exported import TokenKit
