/// How traits flow between view controllers and views.
public enum HierarchyMode: String, CaseIterable, Sendable {
    /// iOS 17 and later: a view controller inherits from its view's superview.
    case ios17
    /// Before iOS 17: view controllers inherit from their parent view controller.
    case legacy
}
