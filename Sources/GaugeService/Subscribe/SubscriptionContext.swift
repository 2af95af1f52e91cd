import GaugeDomain

/// What every Subscribe handler of a service shares, in one reference.
final class SubscriptionContext: Sendable {
  let store: any WidgetStore
  let hub: ChangeHub

  init(store: any WidgetStore, hub: ChangeHub) {
    self.store = store
    self.hub = hub
  }
}
