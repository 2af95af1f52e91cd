import GaugeWire

// WidgetService's unary calls as async methods.

extension GaugeClient {
  static let servicePath = "/gauge.v1.WidgetService/"

  /// Creates widget `id`, or replaces it whole.
  ///
  /// - Returns: the widget as stored, and whether it was created.
  /// - Throws: `invalidArgument` with the violations when the content is
  ///   not valid; `deadlineExceeded` after `timeout`.
  public func put(
    id: String, name: String? = nil, content: ContentPatch, timeout: Duration? = nil
  ) async throws(GaugeError) -> (widget: Widget, created: Bool) {
    try checkOpen()
    let path = Self.servicePath + "PutWidget"
    let request = WidgetWire.encodePutWidgetRequest(
      WidgetPut(id: id, name: name, content: content))
    let bytes = try await keeper.unary(path: path, request: request, timeout: timeout)
    return try Self.decode(bytes, path: path) { raw throws(WireError) in
      try WidgetWire.decodePutWidgetResponse(raw)
    }
  }

  /// Merges `patch` onto widget `id` (creating it when the patch makes a
  /// whole widget).
  ///
  /// - Returns: the widget as stored after the change.
  public func update(
    id: String, patch: WidgetPatch, timeout: Duration? = nil
  ) async throws(GaugeError) -> Widget {
    try checkOpen()
    let path = Self.servicePath + "UpdateWidget"
    let request = WidgetWire.encodeUpdateWidgetRequest(patch.update(id: id))
    let bytes = try await keeper.unary(path: path, request: request, timeout: timeout)
    return try Self.decode(bytes, path: path) { raw throws(WireError) in
      try WidgetWire.decodeWidgetResponse(raw)
    }
  }

  /// Widget `id`.
  ///
  /// - Throws: `notFound` when there is none.
  public func get(id: String, timeout: Duration? = nil) async throws(GaugeError) -> Widget {
    try checkOpen()
    let path = Self.servicePath + "GetWidget"
    let request = WidgetWire.encodeGetWidgetRequest(id: id)
    let bytes = try await keeper.unary(path: path, request: request, timeout: timeout)
    return try Self.decode(bytes, path: path) { raw throws(WireError) in
      try WidgetWire.decodeWidgetResponse(raw)
    }
  }

  /// Deletes widget `id`.
  ///
  /// - Throws: `notFound` when there is none.
  public func delete(id: String, timeout: Duration? = nil) async throws(GaugeError) {
    try checkOpen()
    let path = Self.servicePath + "DeleteWidget"
    let request = WidgetWire.encodeDeleteWidgetRequest(id: id)
    _ = try await keeper.unary(path: path, request: request, timeout: timeout)
  }

  /// Every widget whose id starts with `prefix`, in id order, fetched a
  /// page at a time as the sequence is read (`pageSize` per call, 0 for
  /// the server's default). `timeout` applies to each page's call.
  public func list(
    prefix: String = "", pageSize: Int32 = 0, timeout: Duration? = nil
  ) -> WidgetList {
    WidgetList(client: self, prefix: prefix, pageSize: pageSize, timeout: timeout)
  }

  /// One page of ListWidgets.
  func listPage(
    prefix: String, pageSize: Int32, token: String, timeout: Duration?
  ) async throws(GaugeError) -> WidgetPage {
    try checkOpen()
    let path = Self.servicePath + "ListWidgets"
    let request = WidgetWire.encodeListWidgetsRequest(
      ListQuery(idPrefix: prefix, pageSize: pageSize, pageToken: token))
    let bytes = try await keeper.unary(path: path, request: request, timeout: timeout)
    return try Self.decode(bytes, path: path) { raw throws(WireError) in
      try WidgetWire.decodeListWidgetsResponse(raw)
    }
  }

  static func decode<Value>(
    _ bytes: [UInt8], path: String,
    _ decoder: (UnsafeRawBufferPointer) throws(WireError) -> Value
  ) throws(GaugeError) -> Value {
    let decoded = bytes.withUnsafeBytes { raw in
      Result { () throws(WireError) in try decoder(raw) }
    }
    switch decoded {
    case .success(let value): return value
    case .failure(let error): throw .badResponse(error, path: path)
    }
  }
}
