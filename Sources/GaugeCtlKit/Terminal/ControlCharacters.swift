extension Unicode.Scalar {
  /// C0, DEL and C1: characters a terminal may act on instead of showing.
  var isControlCharacter: Bool { value < 0x20 || (0x7F..<0xA0).contains(value) }
}

extension String {
  /// Control characters shown as `\x1B`, not passed on. Widget text comes
  /// from whoever wrote the widget; raw, an ESC or a C1 CSI would give them
  /// the reader's terminal (clear it, retitle it, fake other output). Tab
  /// and line feed stay.
  var escapingControlCharacters: String {
    guard unicodeScalars.contains(where: Self.isEscaped) else { return self }
    var out = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      guard Self.isEscaped(scalar) else {
        out.append(scalar)
        continue
      }
      let hex = String(scalar.value, radix: 16, uppercase: true)
      out.append(contentsOf: "\\x\(hex.count == 1 ? "0" + hex : hex)".unicodeScalars)
    }
    return String(out)
  }

  private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isControlCharacter && scalar != "\t" && scalar != "\n"
  }
}
