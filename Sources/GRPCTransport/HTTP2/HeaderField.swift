/// One HTTP/2 header as it goes on the wire: lower-case name, value bytes.
struct HeaderField: Equatable {
  var name: String
  var value: String

  init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}
