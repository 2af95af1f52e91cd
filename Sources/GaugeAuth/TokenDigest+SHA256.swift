import COpenSSL
import GaugeDomain

extension TokenDigest {
  /// The SHA-256 of `secret`'s bytes, by libcrypto.
  public static func sha256(of secret: some StringProtocol) -> TokenDigest {
    var text = String(secret)
    return text.withUTF8 { sha256(of: UnsafeRawBufferPointer($0)) }
  }

  public static func sha256(of bytes: UnsafeRawBufferPointer) -> TokenDigest {
    var out = [UInt8](repeating: 0, count: byteCount)
    var length: UInt32 = 0
    let done = out.withUnsafeMutableBytes { digest in
      EVP_Digest(
        bytes.baseAddress, bytes.count, digest.baseAddress?.assumingMemoryBound(to: UInt8.self),
        &length, EVP_sha256(), nil)
    }
    // EVP_Digest with SHA-256 fails only when libcrypto cannot allocate.
    precondition(done == 1 && length == UInt32(byteCount), "EVP_Digest(SHA-256) failed")
    return TokenDigest(bytes: out)!
  }

  /// Equality in constant time (CRYPTO_memcmp): how long it takes says
  /// nothing of where two digests differ.
  public func matches(_ other: TokenDigest) -> Bool {
    bytes.withUnsafeBytes { mine in
      other.bytes.withUnsafeBytes { theirs in
        CRYPTO_memcmp(mine.baseAddress, theirs.baseAddress, TokenDigest.byteCount) == 0
      }
    }
  }
}
