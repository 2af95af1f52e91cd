import Foundation
import NATSTesting

/// A CA and a server certificate for 127.0.0.1 signed by it, made with the
/// openssl command in `directory`.
struct TestCertificates {
  let caCertificate: String
  let serverCertificate: String
  let serverKey: String

  init(directory: String) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    caCertificate = directory + "/ca.pem"
    serverCertificate = directory + "/server.pem"
    serverKey = directory + "/server.key"
    let caKey = directory + "/ca.key"
    let request = directory + "/server.csr"
    let extensions = directory + "/server.ext"
    try "subjectAltName = IP:127.0.0.1, DNS:localhost\n".write(
      toFile: extensions, atomically: true, encoding: .utf8)
    try Self.openssl([
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey, "-out", caCertificate,
      "-days", "1", "-subj", "/CN=gauged test CA",
    ])
    try Self.openssl([
      "req", "-newkey", "rsa:2048", "-nodes", "-keyout", serverKey, "-out", request, "-subj",
      "/CN=127.0.0.1",
    ])
    try Self.openssl([
      "x509", "-req", "-in", request, "-CA", caCertificate, "-CAkey", caKey, "-CAcreateserial",
      "-out", serverCertificate, "-days", "1", "-extfile", extensions,
    ])
  }

  private static func openssl(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw TestFailure("openssl \(arguments.first ?? "") failed: \(process.terminationStatus)")
    }
  }
}
