import COpenSSL
import GaugeDomain

extension TokenDigest {
  /// The SHA-256 of `secret`'s bytes, by libcrypto.
  public static func sha256(of secret: some StringProtocol) -> TokenDigest {
    if let digest = secret.utf8.withContiguousStorageIfAvailable({
      sha256(of: UnsafeRawBufferPointer($0))
    }) {
      return digest
    }
    var text = String(secret)
    return text.withUTF8 { sha256(of: UnsafeRawBufferPointer($0)) }
  }

  public static func sha256(of bytes: UnsafeRawBufferPointer) -> TokenDigest {
    TokenDigest { out in
      var length: UInt32 = 0
      let done = EVP_Digest(
        bytes.baseAddress, bytes.count, out.baseAddress?.assumingMemoryBound(to: UInt8.self),
        &length, FetchedDigest.sha256.algorithm, nil)
      // EVP_Digest with SHA-256 fails only when libcrypto cannot allocate.
      precondition(done == 1 && length == UInt32(byteCount), "EVP_Digest(SHA-256) failed")
    }
  }

  /// Equality in constant time (CRYPTO_memcmp): how long it takes says
  /// nothing of where two digests differ.
  public func matches(_ other: TokenDigest) -> Bool {
    withUnsafeBytes(of: words) { mine in
      withUnsafeBytes(of: other.words) { theirs in
        CRYPTO_memcmp(mine.baseAddress, theirs.baseAddress, TokenDigest.byteCount) == 0
      }
    }
  }
}

/// SHA-256 fetched from libcrypto's provider once. `EVP_sha256()` makes
/// OpenSSL 3 look the implementation up again on every digest (a locked
/// query of its provider store), which cost more than the hashing.
// @unchecked Sendable: a fetched EVP_MD is immutable and may be used by any
// number of threads at once (OpenSSL's threading rules); it is never freed.
final class FetchedDigest: @unchecked Sendable {
  static let sha256 = FetchedDigest(name: "SHA256")

  let algorithm: OpaquePointer?

  private init(name: String) {
    // The implicit lookup is the fallback should the fetch fail.
    algorithm = EVP_MD_fetch(nil, name, nil) ?? EVP_sha256()
  }
}
