/// Something a navigator can recognise from a distance by its rhythm.
///
/// Conforming types only describe *when* a light is on; brightness and
/// position belong to whoever owns the light.
public protocol FlashPattern: Sendable {
    /// The length of one full cycle of the pattern, in seconds.
    var period: Double { get }

    /// Returns whether the light is lit `offset` seconds into a cycle.
    func isLit(at offset: Double) -> Bool
}

/// Why a chart notation such as `"Fl(2) W 10s"` could not be read.
public enum CharacteristicError: Error, Equatable {
    case empty
    case unknownRhythm(String)
    case unknownColour(String)
    case invalidPeriod(String)
    case groupTooLong(flashes: Int, period: Double)
}

/// A lighthouse characteristic as printed on nautical charts.
///
/// Only group-flashing lights are modelled: `flashes` short flashes,
/// repeated every `period` seconds.
///
/// ```swift
/// let light = try LightCharacteristic(chartNotation: "Fl(3) R 15s")
/// light.isLit(at: 0.2)   // true
/// ```
public struct LightCharacteristic: FlashPattern, Hashable {
    public enum Colour: Character, Sendable, CaseIterable {
        case white = "W", red = "R", green = "G", yellow = "Y"
    }

    /// Charts rarely print flash length or spacing, so they are fixed
    /// at typical values instead of being parsed.
    public static let flashDuration = 0.5
    public static let gapBetweenFlashes = 1.5

    public let flashes: Int
    public let colour: Colour
    public let period: Double

    /// Creates a characteristic, rejecting groups that cannot fit in one period.
    public init(flashes: Int, colour: Colour, period: Double) throws {
        let busy = Double(flashes) * (Self.flashDuration + Self.gapBetweenFlashes)
        guard flashes > 0, period > 0, busy < period else {
            throw CharacteristicError.groupTooLong(flashes: flashes, period: period)
        }
        self.flashes = flashes
        self.colour = colour
        self.period = period
    }

    public func isLit(at offset: Double) -> Bool {
        let slot = Self.flashDuration + Self.gapBetweenFlashes
        var t = offset.truncatingRemainder(dividingBy: period)
        if t < 0 { t += period }
        let index = Int(t / slot)
        return index < flashes && t - Double(index) * slot < Self.flashDuration
    }
}

extension LightCharacteristic {
    /// Parses the compact chart notation, for example `"Fl W 5s"` or `"Fl(3) R 15s"`.
    ///
    /// - Throws: ``CharacteristicError`` naming the first token it could not read.
    public init(chartNotation text: String) throws {
        let tokens = text.split(separator: " ").map(String.init)
        guard tokens.count == 3 else { throw CharacteristicError.empty }

        let rhythm = tokens[0]
        let flashes: Int
        if rhythm == "Fl" {
            flashes = 1
        } else if rhythm.hasPrefix("Fl("), rhythm.hasSuffix(")"),
                  let count = Int(rhythm.dropFirst(3).dropLast()) {
            flashes = count
        } else {
            throw CharacteristicError.unknownRhythm(rhythm)
        }

        guard tokens[1].count == 1, let letter = tokens[1].first,
              let colour = Colour(rawValue: letter) else {
            throw CharacteristicError.unknownColour(tokens[1])
        }

        guard tokens[2].hasSuffix("s"), let period = Double(tokens[2].dropLast()) else {
            throw CharacteristicError.invalidPeriod(tokens[2])
        }
        try self.init(flashes: flashes, colour: colour, period: period)
    }

    /// The moments within one period at which each flash begins.
    public var flashStarts: [Double] {
        (0..<flashes).map { Double($0) * (Self.flashDuration + Self.gapBetweenFlashes) }
    }
}

extension LightCharacteristic: CustomStringConvertible {
    public var description: String {
        let group = flashes == 1 ? "Fl" : "Fl(\(flashes))"
        let seconds = period.rounded() == period ? String(Int(period)) : String(period)
        return "\(group) \(colour.rawValue) \(seconds)s"
    }
}
