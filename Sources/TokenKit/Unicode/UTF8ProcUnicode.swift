#if CONTEXTKIT_UTF8PROC
    import CUTF8Proc

    /// Unicode facts from the system's libutf8proc (Debian's 2.8: Unicode 15.0),
    /// the source on Linux unless built with `CONTEXTKIT_UNICODE=stdlib`.
    package enum UTF8ProcUnicode: UnicodeSource {
        /// utf8proc's version, e.g. `2.8.0` (the name the class cache has always had).
        package static let cacheKey = String(cString: utf8proc_version())

        /// utf8proc's category, in the standard library's terms.
        package static func generalCategory(of codePoint: UInt32) -> Unicode.GeneralCategory {
            switch utf8proc_category(Int32(bitPattern: codePoint)) {
            case UTF8PROC_CATEGORY_LU: return .uppercaseLetter
            case UTF8PROC_CATEGORY_LL: return .lowercaseLetter
            case UTF8PROC_CATEGORY_LT: return .titlecaseLetter
            case UTF8PROC_CATEGORY_LM: return .modifierLetter
            case UTF8PROC_CATEGORY_LO: return .otherLetter
            case UTF8PROC_CATEGORY_MN: return .nonspacingMark
            case UTF8PROC_CATEGORY_MC: return .spacingMark
            case UTF8PROC_CATEGORY_ME: return .enclosingMark
            case UTF8PROC_CATEGORY_ND: return .decimalNumber
            case UTF8PROC_CATEGORY_NL: return .letterNumber
            case UTF8PROC_CATEGORY_NO: return .otherNumber
            case UTF8PROC_CATEGORY_PC: return .connectorPunctuation
            case UTF8PROC_CATEGORY_PD: return .dashPunctuation
            case UTF8PROC_CATEGORY_PS: return .openPunctuation
            case UTF8PROC_CATEGORY_PE: return .closePunctuation
            case UTF8PROC_CATEGORY_PI: return .initialPunctuation
            case UTF8PROC_CATEGORY_PF: return .finalPunctuation
            case UTF8PROC_CATEGORY_PO: return .otherPunctuation
            case UTF8PROC_CATEGORY_SM: return .mathSymbol
            case UTF8PROC_CATEGORY_SC: return .currencySymbol
            case UTF8PROC_CATEGORY_SK: return .modifierSymbol
            case UTF8PROC_CATEGORY_SO: return .otherSymbol
            case UTF8PROC_CATEGORY_ZS: return .spaceSeparator
            case UTF8PROC_CATEGORY_ZL: return .lineSeparator
            case UTF8PROC_CATEGORY_ZP: return .paragraphSeparator
            case UTF8PROC_CATEGORY_CC: return .control
            case UTF8PROC_CATEGORY_CF: return .format
            case UTF8PROC_CATEGORY_CS: return .surrogate
            case UTF8PROC_CATEGORY_CO: return .privateUse
            default: return .unassigned
            }
        }

        /// utf8proc has no accessor for `White_Space`; the set has not changed
        /// since Unicode 6.
        package static func isWhiteSpace(_ codePoint: UInt32) -> Bool {
            switch codePoint {
            case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
                return true
            default:
                return false
            }
        }

        /// `utf8proc_tolower`.
        package static func simpleLowercase(_ codePoint: UInt32) -> UInt32 {
            UInt32(bitPattern: utf8proc_tolower(Int32(bitPattern: codePoint)))
        }

        /// The shared rule over utf8proc's properties of the scalar.
        @inline(__always)
        package static func isNormalizationInert(_ scalar: UInt32, for form: NormalizationForm) -> Bool {
            let p = utf8proc_get_property(Int32(bitPattern: scalar)).pointee
            let kind: DecompositionKind = p.decomp_seqindex == 0xFFFF ? .none : p.decomp_type == 0 ? .canonical : .compatibility
            return form.isInert(
                scalar: scalar, combiningClass: UInt8(truncatingIfNeeded: p.combining_class),
                isCompositionSecond: p.comb_index != 0xFFFF && p.comb_index & 0x8000 != 0, decomposition: kind,
                recomposes: !nfcChangesDecomposable.contains(scalar))
        }

        /// The characters with a canonical decomposition that NFC does not give
        /// back (singletons, composition exclusions, non-starter decompositions).
        private static let nfcChangesDecomposable: Set<UInt32> = {
            var result = Set<UInt32>()
            var scratch: [UInt32] = []
            for c in UInt32(0x80)..<0x30000 {
                let p = utf8proc_get_property(Int32(c)).pointee
                guard p.decomp_seqindex != 0xFFFF, p.decomp_type == 0, let scalar = Unicode.Scalar(c) else { continue }
                let bytes = Array(String(Character(scalar)).utf8)
                let same = bytes.withUnsafeBufferPointer { b in
                    normalize(b.baseAddress!, count: b.count, to: .nfc, scratch: &scratch).map { $0.elementsEqual(b) } ?? false
                }
                if !same { result.insert(c) }
            }
            return result
        }()

        private static func options(_ form: NormalizationForm) -> utf8proc_option_t {
            var flags = UTF8PROC_STABLE.rawValue | (form.composes ? UTF8PROC_COMPOSE.rawValue : UTF8PROC_DECOMPOSE.rawValue)
            if form.isCompatibility { flags |= UTF8PROC_COMPAT.rawValue }
            return utf8proc_option_t(rawValue: flags)
        }

        /// `utf8proc_decompose` then `utf8proc_reencode`, with the stable option (as `utf8proc_map`).
        package static func normalize(_ p: UnsafePointer<UInt8>, count n: Int, to form: NormalizationForm, scratch: inout [UInt32]) -> [UInt8]? {
            let options = options(form)
            if scratch.count < 64 { scratch = [UInt32](repeating: 0, count: 64) }
            while true {
                let count = scratch.withUnsafeMutableBufferPointer { b in
                    b.withMemoryRebound(to: Int32.self) { utf8proc_decompose(p, n, $0.baseAddress, $0.count - 1, options) }
                }
                if count < 0 { return nil }
                if count >= scratch.count - 1 {
                    scratch = [UInt32](repeating: 0, count: count * 2 + 2)
                    continue
                }
                return scratch.withUnsafeMutableBufferPointer { b -> [UInt8]? in
                    b.withMemoryRebound(to: Int32.self) { b -> [UInt8]? in
                        let bytes = utf8proc_reencode(b.baseAddress, count, options)
                        guard bytes >= 0 else { return nil }
                        return UnsafeRawPointer(b.baseAddress!).withMemoryRebound(to: UInt8.self, capacity: bytes) {
                            Array(UnsafeBufferPointer(start: $0, count: bytes))
                        }
                    }
                }
            }
        }

        /// utf8proc's grapheme bound class.
        package static func isPrepend(_ scalar: UInt32) -> Bool {
            utf8proc_get_property(Int32(bitPattern: scalar)).pointee.boundclass == UTF8PROC_BOUNDCLASS_PREPEND.rawValue
        }

        /// `utf8proc_grapheme_break`.
        package static func isGraphemeBreak(between first: UInt32, and second: UInt32) -> Bool {
            utf8proc_grapheme_break(Int32(bitPattern: first), Int32(bitPattern: second))
        }

        /// utf8proc's stateful break test, scalar after scalar from `start`.
        package static func forEachGraphemeBoundary(in t: UnsafePointer<UInt8>, count n: Int, after start: Int, through limit: Int, _ body: (Int) -> Bool) {
            guard start < n else { return }
            @inline(__always) func decode(_ i: Int) -> (Int32, Int) {
                let (value, length) = UTF8Decoder.scalar(t, at: i, end: n)
                return (Int32(bitPattern: value), length)
            }
            var state: Int32 = 0
            var (previous, length) = decode(start)
            var previousValid = length > 0
            var i = start + max(length, 1)
            while i <= limit && i < n {
                let (scalar, length) = decode(i)
                let valid = length > 0
                let isBreak: Bool
                if previousValid && valid {
                    isBreak = utf8proc_grapheme_break_stateful(previous, scalar, &state)
                } else {
                    isBreak = true
                    state = 0
                }
                if isBreak && !body(i) { return }
                previous = scalar
                previousValid = valid
                i += max(length, 1)
            }
            if i == n && n <= limit { _ = body(n) }
        }
    }
#endif
