/// One HTTP/2 header as it goes on the wire: lower-case name, value bytes.
package struct HeaderField: Equatable {
  package var name: String
  package var value: String

  package init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}
