/// What closures stored by an object's dependents (timers, output
/// callbacks) hold instead of the object itself.
///
/// A weak reference would give the object a side table, which sends every
/// retain and release of it (several per message on the hot objects) down
/// Swift's slow reference-counting path. The owner sets `target` once it is
/// initialised and clears it in `deinit`; both those and every use run on
/// the owner's event loop, so the unsafe reference is never read dangling.
package final class BackReference<Target: AnyObject> {
  package unowned(unsafe) var target: Target?

  package init() {}
}
