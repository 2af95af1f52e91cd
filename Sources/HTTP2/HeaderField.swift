/// One HTTP/2 header as it goes on the wire: lower-case name, value bytes.
/// Built inline in the transports (`@usableFromInline`: see `NGHTTP2Session`).
@usableFromInline package struct HeaderField: Equatable {
  @usableFromInline package var name: String
  @usableFromInline package var value: String

  @inlinable package init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}
