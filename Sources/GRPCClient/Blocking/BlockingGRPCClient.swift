import GRPCCore
import GaugeIO

/// Calls that block the calling thread: one connection, served by a
/// private event loop thread. Meant for command-line tools and scripts;
/// programs that run many calls at once should use `GRPCChannel` on their
/// own loop. Usable from any thread; `close()` when done.
public final class BlockingGRPCClient: Sendable {
  public let address: SocketAddress
  private let group: EventLoopGroup
  private let box: ChannelBox

  /// Connects now (waiting at most `connectTimeout`) and starts the loop
  /// thread. Throws when the server cannot be reached.
  public init(
    address: SocketAddress, configuration: ClientConfiguration = ClientConfiguration(),
    connectTimeout: Duration? = nil
  ) throws(IOError) {
    self.address = address
    group = try EventLoopGroup(threads: 1)
    // Before the loop runs, the calling thread may set it up.
    let channel = try GRPCChannel.connect(
      to: address, on: group.loops[0], configuration: configuration,
      connectTimeout: connectTimeout)
    box = ChannelBox(channel: channel)
    group.start()
  }

  deinit {
    close()
  }

  private var loop: EventLoop { group.loops[0] }

  /// One request, one response. Failures (including a lost connection)
  /// are in the response's status.
  public func unary(
    path: String, request: [UInt8], metadata: Metadata = Metadata(), timeout: Duration? = nil
  ) -> ClientResponse {
    let done = Completion<ClientResponse>()
    let box = self.box
    loop.execute {
      box.channel.connection.unary(
        path: path, request: request, metadata: metadata, timeout: timeout
      ) { response in done.fulfil(response) }
    }
    return done.wait()
  }

  /// One request; `onMessage` runs for each response message, on the
  /// client's loop thread, while this call blocks until the stream ends.
  public func serverStreaming(
    path: String, request: [UInt8], metadata: Metadata = Metadata(), timeout: Duration? = nil,
    onMessage: @escaping @Sendable ([UInt8]) -> Void
  ) -> ClientResponse {
    let done = Completion<ClientResponse>()
    let box = self.box
    loop.execute {
      box.channel.connection.serverStreaming(
        path: path, request: request, metadata: metadata, timeout: timeout, onMessage: onMessage
      ) { response in done.fulfil(response) }
    }
    return done.wait()
  }

  /// Opens a call whose request messages the caller sends one by one
  /// (client streaming); `BlockingRequestStream.finish()` returns the
  /// response.
  public func requestStream(
    path: String, metadata: Metadata = Metadata(), timeout: Duration? = nil
  ) -> BlockingRequestStream {
    BlockingRequestStream(
      loop: loop, box: box, path: path, metadata: metadata, timeout: timeout)
  }

  /// Closes the connection (live calls end with UNAVAILABLE) and stops the
  /// loop thread. Idempotent.
  public func close() {
    let box = self.box
    loop.execute { box.channel.close() }
    group.stopAndJoin()
  }
}

/// The channel, reached only on the client's loop thread.
// @unchecked Sendable: other threads carry it into `loop.execute` closures
// and never touch it themselves.
final class ChannelBox: @unchecked Sendable {
  let channel: GRPCChannel

  init(channel: GRPCChannel) {
    self.channel = channel
  }
}
