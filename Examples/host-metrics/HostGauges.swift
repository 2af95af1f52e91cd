import GaugeClient

/// The four widgets, `host-<name>-cpu|memory|disk|load`.
struct HostGauges {
  let prefix: String
  /// The load gauge's top: twice the cores.
  let loadMax: Double

  init(host: String, cores: Int) {
    loadMax = Double(max(cores, 1) * 2)
    let name = host.split(separator: ".").first.map(String.init) ?? "localhost"
    let safe = name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }
    prefix = "host-\(String(safe))-"
  }

  /// Puts the widgets (replacing any with the same ids).
  func create(on client: GaugeClient) async throws(GaugeError) {
    func gauge(_ label: String, max: Double, unit: String) -> ContentPatch {
      ContentPatch(
        template: .gauge(GaugePatch(value: 0, minValue: 0, maxValue: max)), label: label,
        unit: unit)
    }
    _ = try await client.put(
      id: prefix + "cpu", name: "CPU", content: gauge("CPU", max: 100, unit: "%"))
    _ = try await client.put(
      id: prefix + "memory", name: "Memory", content: gauge("Memory", max: 100, unit: "%"))
    _ = try await client.put(
      id: prefix + "disk", name: "Disk /", content: gauge("Disk /", max: 100, unit: "%"))
    _ = try await client.put(
      id: prefix + "load", name: "Load",
      content: gauge("Load (1 min)", max: loadMax, unit: ""))
  }

  /// Each widget's value in `sample`, clamped into its range.
  func values(of sample: HostSample) -> [(String, Double)] {
    [
      (prefix + "cpu", min(max(sample.cpuPercent, 0), 100)),
      (prefix + "memory", min(max(sample.memoryPercent, 0), 100)),
      (prefix + "disk", min(max(sample.diskPercent, 0), 100)),
      (prefix + "load", min(max(sample.load1, 0), loadMax)),
    ]
  }
}
