/// The widgets `GaugeClient.list(prefix:)` finds, as an async sequence
/// that asks the server for the next page when the last one is read.
/// Each iteration starts from the first page.
public struct WidgetList: AsyncSequence, Sendable {
  /// One widget.
  public typealias Element = Widget
  /// Each page's call fails with a `GaugeError`.
  public typealias Failure = GaugeError

  let client: GaugeClient
  let prefix: String
  let pageSize: Int32
  let timeout: Duration?

  /// Starts at the first page.
  public func makeAsyncIterator() -> Iterator {
    Iterator(list: self)
  }

  /// Reads the pages in order.
  public struct Iterator: AsyncIteratorProtocol {
    /// One widget.
    public typealias Element = Widget
    /// Each page's call fails with a `GaugeError`.
    public typealias Failure = GaugeError

    private let list: WidgetList
    private var page: [Widget] = []
    private var index = 0
    /// nil once the last page was fetched.
    private var nextToken: String? = ""

    init(list: WidgetList) {
      self.list = list
    }

    /// The next widget, fetching a page when needed; nil after the last.
    public mutating func next() async throws(GaugeError) -> Widget? {
      while index == page.count {
        guard let token = nextToken else { return nil }
        let fetched = try await list.client.listPage(
          prefix: list.prefix, pageSize: list.pageSize, token: token, timeout: list.timeout)
        page = fetched.widgets
        index = 0
        nextToken = fetched.nextPageToken.isEmpty ? nil : fetched.nextPageToken
      }
      defer { index += 1 }
      return page[index]
    }
  }
}
