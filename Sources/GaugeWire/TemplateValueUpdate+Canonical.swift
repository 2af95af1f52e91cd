import GaugeDomain

extension TemplateValueUpdate {
  /// The value-only UpdateWidgetRequest in the shape clients write it: an
  /// id, and a content holding one template holding one value, each field
  /// once, the id valid UTF-8 without NUL. Read off the wire without
  /// protobuf-c, which cost about 2,000 instructions per call to unpack,
  /// check and free. Anything else (a field repeated, unknown or of
  /// another wire type, a truncation) is nil, and goes through protobuf-c,
  /// whose rules then decide.
  init?(canonical bytes: UnsafeRawBufferPointer) {
    var reader = WireReader(bytes)
    var id: UnsafeRawBufferPointer?
    var content: UnsafeRawBufferPointer?
    while !reader.isAtEnd {
      switch reader.nextKey() {
      case WireReader.key(1, .lengthDelimited) where id == nil:
        guard let field = reader.lengthDelimited() else { return nil }
        id = field
      case WireReader.key(3, .lengthDelimited) where content == nil:
        guard let field = reader.lengthDelimited() else { return nil }
        content = field
      default:
        return nil
      }
    }
    guard let id, let content, StringFieldCheck.stringProblem(in: id) == nil else { return nil }

    var contentReader = WireReader(content)
    let kind: TemplateKind
    switch contentReader.nextKey() {
    case WireReader.key(1, .lengthDelimited): kind = .gauge
    case WireReader.key(2, .lengthDelimited): kind = .progress
    case WireReader.key(3, .lengthDelimited): kind = .value
    default: return nil
    }
    guard let template = contentReader.lengthDelimited(), contentReader.isAtEnd else { return nil }

    var templateReader = WireReader(template)
    guard templateReader.nextKey() == WireReader.key(1, .fixed64),
      let bits = templateReader.fixed64(), templateReader.isAtEnd
    else { return nil }
    self.init(id: String(decoding: id, as: UTF8.self), kind: kind, value: Double(bitPattern: bits))
  }
}
