import GaugeDomain
import GaugeIO

/// Reading `--tokens-file`: every line must be a token, a comment or blank;
/// the first bad line stops gauged with its number and the rule it breaks.
enum TokenSource {
  struct Failure: Error {
    var message: String
  }

  static func read(file path: String, nowMs: Int64) -> Result<[AccessToken], Failure> {
    let bytes: [UInt8]
    do {
      bytes = try Syscall.readWholeFile(path: path, limit: 4 << 20)
    } catch {
      return .failure(Failure(message: "cannot read --tokens-file \(path): \(error)"))
    }
    var tokens: [AccessToken] = []
    var names: Set<String> = []
    let text = String(decoding: bytes, as: UTF8.self)
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      switch TokenLine.parse(line, createdMs: nowMs) {
      case .nothing: continue
      case .invalid(let violation):
        return .failure(
          Failure(
            message:
              "--tokens-file \(path) line \(number + 1): \(violation.field) \(violation.description)"
          ))
      case .token(let token):
        guard names.insert(token.name).inserted else {
          return .failure(
            Failure(
              message: "--tokens-file \(path) line \(number + 1): the name \(token.name) is taken"))
        }
        tokens.append(token)
      }
    }
    return .success(tokens)
  }
}
