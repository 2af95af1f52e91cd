/// Counters a module keeps on one event loop, beside the transport's:
/// written on that loop only, and turned into families there when a scrape
/// visits the loop (the scrape adds up the loops' families).
public protocol LoopMetricsPart: AnyObject {
  var families: [MetricFamily] { get }
}
