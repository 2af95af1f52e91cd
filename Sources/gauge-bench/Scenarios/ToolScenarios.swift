import GRPCClient
import GRPCCore
import GaugeDomain
import GaugeIO
import GaugeWire
import Glibc

/// The small helpers `scripts/bench` needs around h2load.
enum ToolScenarios {
  static func setup(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure) -> JSONLine {
    try WidgetSetup.create(options.widgets, loops: loops)
    var line = JSONLine()
    line.add("scenario", "setup")
    line.add("widgets", options.widgets)
    return line
  }

  /// The request body h2load repeats: one gRPC-framed UpdateWidgetRequest.
  static func body(_ options: BenchOptions) throws(BenchFailure) -> JSONLine {
    guard !options.output.isEmpty else { throw BenchFailure("body needs --out PATH") }
    var request = TrailingValueMessage.updateWidget(id: BenchRequests.widgetID(0))
    request.set(1)
    var framed: [UInt8] = []
    MessageFramer.append(request.bytes, to: &framed)
    let fd: Int32
    do {
      fd = try Syscall.open(path: options.output, flags: O_WRONLY | O_CREAT | O_TRUNC)
    } catch {
      throw BenchFailure("cannot create \(options.output): \(error)")
    }
    defer { Syscall.close(fd: fd) }
    let written = try? framed.withUnsafeBytes { bytes throws(IOError) in
      try Syscall.write(fd: fd, buffer: bytes)
    }
    guard case .processed(framed.count)? = written else {
      throw BenchFailure("cannot write \(options.output)")
    }
    var line = JSONLine()
    line.add("scenario", "body")
    line.add("bytes", framed.count)
    return line
  }

  /// bench-00000's revision: the count of accepted updates between two
  /// readings when nothing else writes.
  static func revision(_ options: BenchOptions, address: SocketAddress) throws(BenchFailure)
    -> JSONLine
  {
    let client: BlockingGRPCClient
    do {
      client = try BlockingGRPCClient(address: address, connectTimeout: .seconds(10))
    } catch {
      throw BenchFailure("cannot connect to \(address): \(error)")
    }
    defer { client.close() }
    let response = client.unary(
      path: BenchRequests.getWidget,
      request: BenchRequests.getRequest(id: BenchRequests.widgetID(0)), timeout: .seconds(10))
    let bytes: [UInt8]
    do {
      bytes = try response.singleMessage()
    } catch {
      throw BenchFailure("GetWidget failed: \(error)")
    }
    let decoded = bytes.withUnsafeBytes { bytes in
      Result { () throws(WireError) in try WidgetWire.decodeWidget(bytes) }
    }
    guard case .success(let widget) = decoded else {
      throw BenchFailure("GetWidget's answer is not a widget")
    }
    var line = JSONLine()
    line.add("scenario", "revision")
    line.add("revision", widget.revision)
    return line
  }
}
