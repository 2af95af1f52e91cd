/// A colour as red, green and blue bytes.
public struct RGB: Sendable, Equatable {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8

  public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// The colour a `fraction` of the way from `self` to `other`.
  func mixed(with other: RGB, _ fraction: Double) -> RGB {
    func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
      UInt8((Double(a) + (Double(b) - Double(a)) * min(max(fraction, 0), 1)).rounded())
    }
    return RGB(channel(red, other.red), channel(green, other.green), channel(blue, other.blue))
  }
}

/// How a run of text looks. Plain output ignores all of it.
public struct TextStyle: Sendable, Equatable {
  public var foreground: RGB?
  public var bold = false
  public var dim = false
  public var inverse = false

  public init(foreground: RGB? = nil, bold: Bool = false, dim: Bool = false, inverse: Bool = false)
  {
    self.foreground = foreground
    self.bold = bold
    self.dim = dim
    self.inverse = inverse
  }

  public static let plain = TextStyle()
  public static let dimmed = TextStyle(dim: true)
  public static let strong = TextStyle(bold: true)
}

/// Text in one style.
public struct Span: Sendable, Equatable {
  public var text: String
  public var style: TextStyle

  public init(_ text: String, _ style: TextStyle = .plain) {
    self.text = text
    self.style = style
  }
}

/// One row of the screen.
public typealias ScreenLine = [Span]

extension Array where Element == Span {
  /// The columns the line takes.
  public var width: Int { reduce(0) { $0 + DisplayWidth.of($1.text) } }

  /// The text without styles.
  public var plainText: String { map(\.text).joined() }

  /// `left` and `right` on one line `columns` wide, the left side cut to
  /// make room when needed.
  static func spread(_ left: ScreenLine, _ right: ScreenLine, columns: Int) -> ScreenLine {
    let rightWidth = right.width
    let room = columns - rightWidth - 1
    guard room > 0 else { return right.truncated(to: columns) }
    let leftPart = left.truncated(to: room)
    return leftPart + [Span(String(repeating: " ", count: columns - leftPart.width - rightWidth))]
      + right
  }

  /// At most `columns` wide; the last kept span ends in "…" when cut.
  func truncated(to columns: Int) -> ScreenLine {
    guard width > columns else { return self }
    var out: ScreenLine = []
    var used = 0
    for span in self {
      let spanWidth = DisplayWidth.of(span.text)
      if used + spanWidth <= columns - 1 {
        out.append(span)
        used += spanWidth
        continue
      }
      out.append(Span(DisplayWidth.truncate(span.text, to: columns - used), span.style))
      break
    }
    return out
  }
}
