import Glibc

/// A test CA and a server certificate it signed for localhost and
/// 127.0.0.1 (P-256, valid for a century), made once with the openssl
/// command, for TLS sessions driven in memory. Only tests trust this CA.
public enum TestCertificates {
  public static let caPEM = """
    -----BEGIN CERTIFICATE-----
    MIIBijCCAS+gAwIBAgIUHn1Oj4CRg9wtOYPFAD4CPJ/nJRwwCgYIKoZIzj0EAwIw
    GTEXMBUGA1UEAwwOZ2F1Z2VkIHRlc3QgQ0EwIBcNMjYxMjAyMDMyOTExWhgPMjEy
    NjExMDgwMzI5MTFaMBkxFzAVBgNVBAMMDmdhdWdlZCB0ZXN0IENBMFkwEwYHKoZI
    zj0CAQYIKoZIzj0DAQcDQgAELe0iYTU8nccqvtVutuHVUGFTHDxcXYWDuZEKc8Q+
    O3RvKMvTTZT7KtqPrMsFUGc6GIySIOENw9k40peCdhQ6tqNTMFEwHQYDVR0OBBYE
    FOqsF/lqbgqsA0ngt/G58tqt4zx9MB8GA1UdIwQYMBaAFOqsF/lqbgqsA0ngt/G5
    8tqt4zx9MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSQAwRgIhAMV0tYab
    2/ri2ycNdcj32LatXubOOnxw6KVXJvMjvMN/AiEAzZzrnTdPYcBeD6s0YLnBLGMs
    9Vda+Rpy4e4EdLesZgY=
    -----END CERTIFICATE-----
    """

  public static let serverPEM = """
    -----BEGIN CERTIFICATE-----
    MIIBjjCCATWgAwIBAgIUMeUDgSkkmBNQMpvbpvHh8u7kxlgwCgYIKoZIzj0EAwIw
    GTEXMBUGA1UEAwwOZ2F1Z2VkIHRlc3QgQ0EwIBcNMjYxMjAyMDMyOTExWhgPMjEy
    NjExMDgwMzI5MTFaMBQxEjAQBgNVBAMMCWxvY2FsaG9zdDBZMBMGByqGSM49AgEG
    CCqGSM49AwEHA0IABF6Nbs7WKz82fgT5YCy/ZigA3soYhvp3QAgkNksaGF3cSqNx
    vED55SQoj8feY1cxiOXrJgqD2ZOO+YNL5hIRfyejXjBcMBoGA1UdEQQTMBGCCWxv
    Y2FsaG9zdIcEfwAAATAdBgNVHQ4EFgQUCIhATf6vtwLL3S3ZoneiKvdA4IcwHwYD
    VR0jBBgwFoAU6qwX+WpuCqwDSeC38bny2q3jPH0wCgYIKoZIzj0EAwIDRwAwRAIg
    D6xh3MjzJFp4fQuJY9vYUYCVrBzb3FiNLr/2t7wix7wCIGW3wBgh+3I+W6VarUQc
    xNqaNT0l75RIqs8btinpeCBy
    -----END CERTIFICATE-----
    """

  public static let serverKeyPEM = """
    -----BEGIN PRIVATE KEY-----
    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgR0zMHKHq0t8LyOmg
    cGpzNGBlVwGxuLQzK004vT77M0ShRANCAARejW7O1is/Nn4E+WAsv2YoAN7KGIb6
    d0AIJDZLGhhd3EqjcbxA+eUkKI/H3mNXMYjl6yYKg9mTjvmDS+YSEX8n
    -----END PRIVATE KEY-----
    """

  /// The three files in a fresh directory, removed by the caller.
  public struct Files: Sendable {
    public let directory: String
    public var ca: String { directory + "/ca.pem" }
    public var certificate: String { directory + "/server.pem" }
    public var key: String { directory + "/server.key" }

    public func remove() {
      for path in [ca, certificate, key] { unlink(path) }
      rmdir(directory)
    }
  }

  /// A failed write, named by the call and the path.
  public struct WriteFailure: Error, CustomStringConvertible {
    public let description: String
  }

  public static func write() throws(WriteFailure) -> Files {
    var template = Array("/tmp/gauged-tls-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw WriteFailure(description: "mkdtemp failed (errno \(errno))")
    }
    let files = Files(directory: String(cString: made))
    for (path, text) in [
      (files.ca, caPEM), (files.certificate, serverPEM), (files.key, serverKeyPEM),
    ] {
      guard let file = fopen(path, "w") else {
        throw WriteFailure(description: "cannot create \(path) (errno \(errno))")
      }
      let bytes = Array((text + "\n").utf8)
      let written = fwrite(bytes, 1, bytes.count, file)
      fclose(file)
      guard written == bytes.count else { throw WriteFailure(description: "cannot write \(path)") }
    }
    return files
  }
}
