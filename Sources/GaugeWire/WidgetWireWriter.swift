import GaugeDomain

/// Writes a `gauge.v1.Widget` straight from the domain value: the bytes
/// protobuf-c packs for it (`WidgetWire.encodeWidget`), without its struct
/// graph. A unary answer is one widget, and laying out the graph, sizing
/// and packing it cost about 3,000 of the 36,000 instructions an
/// UpdateWidget took.
///
/// Fields go in field-number order with the same presence rules as
/// `EncodeArena.widget` (zero-valued enums and absent optionals left out),
/// as protobuf-c writes them. Strings are written whole: they hold no NUL
/// (a request with one is refused), so protobuf-c's strlen takes the same
/// bytes. `WidgetWireWriterTests` compares the two on random widgets.
enum WidgetWireWriter {
  /// The widget's encoded size, and its content's, which `write` needs
  /// again for the content's length.
  struct Sizes {
    var widget: Int
    var content: Int
  }

  static func sizes(of widget: Widget) -> Sizes {
    let content = contentSize(widget.content)
    let size =
      stringSize(1, widget.id) + stringSize(2, widget.name)
      + WireWriter.lengthDelimitedSize(3, payload: content)
      + varintSize(4, widget.revision)
      + varintSize(5, UInt64(bitPattern: widget.createdAtMs))
      + varintSize(6, UInt64(bitPattern: widget.updatedAtMs))
      + (widget.staleAfterMs.map { varintSize(7, UInt64(UInt32(clamping: $0))) } ?? 0)
      + (widget.stale ? 2 : 0)
    return Sizes(widget: size, content: content)
  }

  /// `buffer` holds exactly `sizes.widget` bytes.
  static func write(_ widget: Widget, sizes: Sizes, into buffer: UnsafeMutableRawBufferPointer) {
    var writer = WireWriter(buffer)
    string(1, widget.id, to: &writer)
    string(2, widget.name, to: &writer)
    writer.key(3, .lengthDelimited)
    writer.varint(UInt64(sizes.content))
    content(widget.content, to: &writer)
    writer.key(4, .varint)
    writer.varint(widget.revision)
    writer.key(5, .varint)
    writer.varint(UInt64(bitPattern: widget.createdAtMs))
    writer.key(6, .varint)
    writer.varint(UInt64(bitPattern: widget.updatedAtMs))
    if let staleAfterMs = widget.staleAfterMs {
      writer.key(7, .varint)
      writer.varint(UInt64(UInt32(clamping: staleAfterMs)))
    }
    if widget.stale {
      writer.key(8, .varint)
      writer.varint(1)
    }
    assert(writer.isAtEnd, "the widget's size was not what was written")
  }

  // MARK: Content

  private static func contentSize(_ content: Content) -> Int {
    let template = content.template
    return WireWriter.lengthDelimitedSize(templateField(template), payload: templateSize(template))
      + stringSize(10, content.label) + stringSize(11, content.subtitle)
      + stringSize(12, content.icon) + stringSize(13, content.unit)
      + enumSize(14, content.trend.rawValue) + stringSize(15, content.accentColor)
      + stringSize(16, content.backgroundColor) + stringSize(17, content.textColor)
  }

  private static func content(_ content: Content, to writer: inout WireWriter) {
    let template = content.template
    writer.key(templateField(template), .lengthDelimited)
    writer.varint(UInt64(templateSize(template)))
    switch template {
    case .gauge(let gauge): self.gauge(gauge, to: &writer)
    case .progress(let progress): double(1, progress.value, to: &writer)
    case .value(let plain):
      double(1, plain.value, to: &writer)
      if let minValue = plain.minValue { double(2, minValue, to: &writer) }
      if let maxValue = plain.maxValue { double(3, maxValue, to: &writer) }
    }
    string(10, content.label, to: &writer)
    string(11, content.subtitle, to: &writer)
    string(12, content.icon, to: &writer)
    string(13, content.unit, to: &writer)
    enumeration(14, content.trend.rawValue, to: &writer)
    string(15, content.accentColor, to: &writer)
    string(16, content.backgroundColor, to: &writer)
    string(17, content.textColor, to: &writer)
  }

  // MARK: Templates

  private static func templateField(_ template: Template) -> UInt64 {
    switch template {
    case .gauge: 1
    case .progress: 2
    case .value: 3
    }
  }

  private static func templateSize(_ template: Template) -> Int {
    switch template {
    case .gauge(let gauge): gaugeSize(gauge)
    case .progress: doubleSize
    case .value(let plain):
      doubleSize + (plain.minValue == nil ? 0 : doubleSize)
        + (plain.maxValue == nil ? 0 : doubleSize)
    }
  }

  private static func gaugeSize(_ gauge: Gauge) -> Int {
    var size = 3 * doubleSize + enumSize(4, gauge.style.rawValue)
    for color in gauge.gradient { size += stringSize(5, color) }
    for mark in gauge.marks { size += WireWriter.lengthDelimitedSize(6, payload: markSize(mark)) }
    return size + stringSize(7, gauge.currentValueLabel) + stringSize(8, gauge.minLabel)
      + stringSize(9, gauge.maxLabel)
  }

  private static func gauge(_ gauge: Gauge, to writer: inout WireWriter) {
    double(1, gauge.value, to: &writer)
    double(2, gauge.minValue, to: &writer)
    double(3, gauge.maxValue, to: &writer)
    enumeration(4, gauge.style.rawValue, to: &writer)
    for color in gauge.gradient { string(5, color, to: &writer) }
    for mark in gauge.marks {
      writer.key(6, .lengthDelimited)
      writer.varint(UInt64(markSize(mark)))
      double(1, mark.value, to: &writer)
      string(2, mark.label, to: &writer)
    }
    string(7, gauge.currentValueLabel, to: &writer)
    string(8, gauge.minLabel, to: &writer)
    string(9, gauge.maxLabel, to: &writer)
  }

  private static func markSize(_ mark: Mark) -> Int {
    doubleSize + stringSize(2, mark.label)
  }

  // MARK: Fields (all numbers here are below 16: one-byte keys, but 16, 17)

  /// A double field with its one-byte key.
  private static let doubleSize = 9

  private static func double(_ number: UInt64, _ value: Double, to writer: inout WireWriter) {
    writer.key(number, .fixed64)
    writer.fixed64(value.bitPattern)
  }

  private static func varintSize(_ number: UInt64, _ value: UInt64) -> Int {
    WireWriter.keySize(number) + WireWriter.varintSize(value)
  }

  /// protobuf-c writes an enum as an int32: a negative one takes ten bytes.
  /// Zero is left out, as `EncodeArena` leaves it.
  private static func enumSize(_ number: UInt64, _ value: Int32) -> Int {
    value == 0 ? 0 : varintSize(number, UInt64(bitPattern: Int64(value)))
  }

  private static func enumeration(_ number: UInt64, _ value: Int32, to writer: inout WireWriter) {
    guard value != 0 else { return }
    writer.key(number, .varint)
    writer.varint(UInt64(bitPattern: Int64(value)))
  }

  private static func stringSize(_ number: UInt64, _ text: String?) -> Int {
    guard let text else { return 0 }
    return WireWriter.lengthDelimitedSize(number, payload: text.utf8.count)
  }

  private static func string(_ number: UInt64, _ text: String?, to writer: inout WireWriter) {
    guard var text else { return }
    writer.key(number, .lengthDelimited)
    text.withUTF8 { utf8 in
      writer.varint(UInt64(utf8.count))
      writer.bytes(UnsafeRawBufferPointer(utf8))
    }
  }
}
