// host-metrics: publishes this host's CPU, memory, disk and load as gauges
// to gauged every second, with the GaugeClient library.
//
//   host-metrics [--server ADDRESS]   (default $GAUGED_SERVER, else 127.0.0.1:50051)

import Foundation
import GaugeClient

let arguments = CommandLine.arguments
let server: String = {
  if let index = arguments.firstIndex(of: "--server"), index + 1 < arguments.count {
    return arguments[index + 1]
  }
  if let fromEnvironment = ProcessInfo.processInfo.environment["GAUGED_SERVER"],
    !fromEnvironment.isEmpty
  {
    return fromEnvironment
  }
  return "127.0.0.1:50051"
}()

let client = try GaugeClient(target: server)
var sampler = HostSampler()
let widgets = HostGauges(
  host: ProcessInfo.processInfo.hostName, cores: ProcessInfo.processInfo.activeProcessorCount)

FileHandle.standardOutput.write(
  Data("host-metrics: publishing to \(server) as \(widgets.prefix)*; Ctrl-C stops\n".utf8))
var needsWidgets = true
while true {
  do {
    if needsWidgets {
      try await widgets.create(on: client)
      needsWidgets = false
    }
    let sample = sampler.sample()
    let publisher = client.publisher(timeout: .seconds(5))
    for (id, value) in widgets.values(of: sample) {
      try await publisher.send(id: id, value: value)
    }
    let report = try await publisher.finish()
    // A widget deleted behind our back (or a server that lost its store) is made again.
    if report.rejections.contains(where: { $0.code == .notFound }) { needsWidgets = true }
  } catch {
    FileHandle.standardError.write(Data("host-metrics: \(error)\n".utf8))
    needsWidgets = true
  }
  try await Task.sleep(for: .seconds(1))
}
