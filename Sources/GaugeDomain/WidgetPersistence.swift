/// Makes accepted changes durable. `InMemoryWidgetStore` calls `record`
/// inside its critical section, in revision order, so an implementation
/// sees exactly the sequence of states the memory table went through; it
/// must only queue there (never wait on a disk).
public protocol WidgetPersistence: AnyObject, Sendable {
  /// Queues a change for writing. `removedAtMs` is set for removals.
  func record(_ change: WidgetChange, removedAtMs: Int64?)
  /// Queues a change that set only a widget's value (the producers' hot
  /// path); the rest of the widget is as the changes before it left it.
  func recordValue(_ change: ValueChange)
  /// `recordValue` for each, in order.
  func recordValues(_ changes: [ValueChange])
  /// Calls `done`, on any thread, once everything recorded before this call
  /// is as durable as the configured mode promises, or with `.unavailable`
  /// when it could not be stored.
  func whenDurable(_ done: @escaping @Sendable (Result<Void, WidgetError>) -> Void)
  /// Non-nil while writes must be refused (the disk is full, the file
  /// failed): checked before a write is applied, so nothing is acknowledged
  /// that could not be stored.
  var writeBlocker: WidgetError? { get }
  /// What `whenDurable` would answer now, when it would answer at once;
  /// nil when the answer has to wait.
  var durabilityIfSettled: Result<Void, WidgetError>? { get }
}

extension WidgetPersistence {
  public var durabilityIfSettled: Result<Void, WidgetError>? { nil }

  public func recordValues(_ changes: [ValueChange]) {
    for change in changes { recordValue(change) }
  }
}
