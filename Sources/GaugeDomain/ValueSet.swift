/// One value for `WidgetStore.setValues`: a PublishValues item.
public struct ValueSet: Sendable, Equatable {
  public var id: String
  public var value: Double

  public init(id: String, value: Double) {
    self.id = id
    self.value = value
  }
}

/// Why the value at `offset` of a `setValues` batch was not applied.
public struct ValueSetRejection: Sendable, Equatable {
  public var offset: Int
  public var error: WidgetError

  public init(offset: Int, error: WidgetError) {
    self.offset = offset
    self.error = error
  }
}
