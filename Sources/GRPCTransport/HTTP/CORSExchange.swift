import GRPCCore

/// An exchange that adds a CORS policy's fields to the head of whatever
/// answer goes through it, whole or streamed, and forwards everything else
/// untouched to the session's own exchange.
final class CORSExchange: HTTPExchange {
  private let inner: any HTTPExchange
  private let fields: HTTPFields

  init(_ inner: any HTTPExchange, adding fields: HTTPFields) {
    self.inner = inner
    self.fields = fields
  }

  func respond(_ response: HTTPResponse) {
    var response = response
    for field in fields { response.headers.append(field.name, field.value) }
    inner.respond(response)
  }

  func startStream(status: Int, headers: HTTPFields) {
    var headers = headers
    for field in fields { headers.append(field.name, field.value) }
    inner.startStream(status: status, headers: headers)
  }

  func write(_ bytes: [UInt8]) { inner.write(bytes) }
  func finish() { inner.finish() }
  var pendingOutboundBytes: Int { inner.pendingOutboundBytes }
  var scheduler: any CallScheduler { inner.scheduler }
  var isFinished: Bool { inner.isFinished }
  var metrics: LoopMetrics? { inner.metrics }
  var peer: String? { inner.peer }
  var credentialMemo: CredentialMemo? { inner.credentialMemo }

  // The callbacks live on the session's exchange, which clears them when
  // it ends: holding them here would keep a face alive past its exchange.
  var onOutboundDrained: (() -> Void)? {
    get { inner.onOutboundDrained }
    set { inner.onOutboundDrained = newValue }
  }

  var onCancel: (() -> Void)? {
    get { inner.onCancel }
    set { inner.onCancel = newValue }
  }
}
