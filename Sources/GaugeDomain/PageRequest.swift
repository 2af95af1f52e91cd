/// A validated `ListQuery`.
struct PageRequest {
  static let defaultSize = 100
  static let maximumSize = 1000

  var idPrefix: String
  var size: Int
  /// Resume after this id; nil for the first page.
  var afterID: String?

  init(_ query: ListQuery) throws(WidgetError) {
    var violations = Violations()
    if query.pageSize < 0 {
      violations.add("page_size", "must not be negative, got \(query.pageSize)")
    }
    var afterID: String?
    if !query.pageToken.isEmpty {
      afterID = PageToken.decode(query.pageToken)
      if afterID == nil {
        violations.add("page_token", "is not a token from a previous ListWidgets response")
      }
    }
    try violations.check()
    self.idPrefix = query.idPrefix
    self.size =
      query.pageSize == 0 ? Self.defaultSize : min(Int(query.pageSize), Self.maximumSize)
    self.afterID = afterID
  }
}
