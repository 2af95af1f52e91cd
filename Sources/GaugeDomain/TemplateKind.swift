/// Which of the three templates a widget has or a request names, without
/// their fields: what decides whether a value-only update may take the
/// `setValue` path.
public enum TemplateKind: Sendable, Equatable {
  case gauge, progress, value
}

extension Template {
  public var kind: TemplateKind {
    switch self {
    case .gauge: .gauge
    case .progress: .progress
    case .value: .value
    }
  }
}

extension TemplatePatch {
  public var kind: TemplateKind {
    switch self {
    case .gauge: .gauge
    case .progress: .progress
    case .value: .value
    }
  }
}
