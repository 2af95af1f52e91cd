import GRPCCore
import GRPCTransport
import GaugeDomain
import Synchronization

/// Fans every accepted change out to the event loops that have subscribers.
/// `publish` is the store's observer: it runs inside the store's critical
/// section, so changes reach each loop's inbox in revision order, and it
/// only queues (it never waits on a subscriber or a socket).
public final class ChangeHub: Sendable {
  private let inboxes = Mutex<[ObjectIdentifier: LoopInbox]>([:])
  private let tally = SubscriberTally()

  public init() {}

  /// Subscribers attached on every loop: what the fuzzer checks is zero
  /// once every connection is gone.
  package var subscriberCount: Int { tally.count.load(ordering: .relaxed) }

  public func publish(_ change: WidgetChange) {
    forEachInboxWithSubscribers { $0.post(change) }
  }

  /// The store's batch observer: a producer's burst, in revision order,
  /// posted to each inbox under one lock.
  public func publish(batch changes: [WidgetChange]) {
    forEachInboxWithSubscribers { $0.post(batch: changes) }
  }

  // Always inlined: as a call, its closure copied the change (a widget,
  // a retain per field) three times per publish, subscribers or not.
  @inline(__always)
  private func forEachInboxWithSubscribers(_ body: (LoopInbox) -> Void) {
    // Relaxed loads suffice, here and below: a subscriber is counted
    // before it reads the store, and publishing runs inside the store's
    // critical section, so a change it could miss is in what it read.
    guard tally.count.load(ordering: .relaxed) > 0 else { return }
    inboxes.withLock { inboxes in
      for inbox in inboxes.values where inbox.subscriberCount.load(ordering: .relaxed) > 0 {
        body(inbox)
      }
    }
  }

  /// Attaches a subscriber on its call's loop; call on that loop.
  func attach(_ subscriber: any InboxSubscriber, call: ServerCall) -> LoopInbox? {
    guard let executor = call.loopExecutor else { return nil }
    return attach(subscriber, executor: executor)
  }

  func attach(_ subscriber: any InboxSubscriber, executor: any LoopExecutor) -> LoopInbox {
    let identity = ObjectIdentifier(executor)
    let inbox = inboxes.withLock { inboxes in
      if let inbox = inboxes[identity] { return inbox }
      let inbox = LoopInbox(tally: tally, executor: executor)
      inboxes[identity] = inbox
      return inbox
    }
    inbox.attach(subscriber)
    return inbox
  }
}
