/// Where a scoped store's state lives in its root store's state, from the store id alone
/// (CONTRACT §10): the id's components after the root, as a state path.
///
/// ```
/// AppFeature#1                       → ""                 (a root store)
/// AppFeature#1/pages[id: 2]          → "pages[id: 2]"
/// AppFeature#1/pages[id: 2]/detail   → "pages[id: 2].detail"
/// ```
///
/// A `state.changed` of a scoped store names paths relative to that store (`count`); its path
/// from the root is ``ScopePath/fromRoot(_:store:)`` (`pages[id: 2].count`), which is what a
/// `--path` glob written against the root's state (`pages*.count`) matches.
public enum ScopePath {
  /// The path of `store`'s state from its root store's state; `""` for a root store.
  public static func of(store: String) -> Substring {
    guard let slash = store.firstIndex(of: "/") else { return "" }
    return store[store.index(after: slash)...]
  }

  /// `path` (relative to `store`) as a path from the root store's state, or `nil` when
  /// `store` is a root store (the path is already from the root).
  public static func fromRoot(_ path: String, store: String) -> String? {
    let scope = of(store: store)
    guard !scope.isEmpty else { return nil }
    var text = scope.replacingOccurrences(of: "/", with: ".")
    if path.isEmpty { return text }
    if !path.hasPrefix("[") { text.append(".") }
    text.append(path)
    return text
  }
}
