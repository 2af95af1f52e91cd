import Foundation

/// A CA and a server certificate for 127.0.0.1 and localhost, made with the
/// openssl command in a fresh directory, for gauged's `--tls-cert`.
struct TestPKI {
  let directory: String
  var ca: String { directory + "/ca.pem" }
  var certificate: String { directory + "/server.pem" }
  var key: String { directory + "/server.key" }

  /// gauged's flags for TLS with this pair.
  var serverArguments: [String] { ["--tls-cert", certificate, "--tls-key", key] }

  init() throws {
    directory = GaugedProcess.temporaryDirectory()
    try run(
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
      "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=client tests CA")
    try run(
      "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
      "server.key", "-out", "server.csr", "-subj", "/CN=localhost")
    try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(
      toFile: directory + "/server.ext", atomically: true, encoding: .utf8)
    try run(
      "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
      "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "server.ext")
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  private func run(_ arguments: String...) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: ["openssl": arguments.joined(separator: " ")])
    }
  }
}
