import Foundation

extension RenderingZoo {
  /// Foundation's reference types (Objective-C-bridged on Apple platforms).
  @MainActor
  static let foundationReferenceCases: [Case] = [
    Case(name: "nserror-optional-error") {
      check(ZooRequestState(isLoading: true), ZooRequestState(error: NSError(domain: "Net", code: 7)))
    },
    Case(name: "nserror-field") {
      check(NSError(domain: "Net", code: 1), NSError(domain: "Net", code: 2, userInfo: ["reason": "gone"]))
    },
    Case(name: "nsarray") { check(NSArray(array: [1]), NSArray(array: [2])) },
    Case(name: "nsmutablearray") { check(NSMutableArray(array: [1, "a"]), NSMutableArray(array: [1, "b", 3])) },
    Case(name: "nsdictionary") { check(NSDictionary(dictionary: ["a": 1]), NSDictionary(dictionary: ["a": 2, "b": 3])) },
    Case(name: "nsset") { check(NSSet(array: [1, 2]), NSSet(array: [2, 3])) },
    Case(name: "nsnumber") { check(NSNumber(value: 1), NSNumber(value: 2.5)) },
    Case(name: "nsstring") { check(NSString(string: "a"), NSString(string: "b")) },
    Case(name: "nsmutablestring") { check(NSMutableString(string: "a"), NSMutableString(string: "ab")) },
    Case(name: "nsdate") { check(NSDate(timeIntervalSince1970: 0), NSDate(timeIntervalSince1970: 1_700_000_000)) },
    Case(name: "nsdata") { check(NSData(data: Data("ab".utf8)), NSData(data: Data("abc".utf8))) },
    Case(name: "nsurl") { check(NSURL(string: "https://a.example")!, NSURL(string: "https://b.example")!) },
    Case(name: "nsuuid") { check(NSUUID(), NSUUID()) },
    Case(name: "nsnull") { check(Optional<NSNull>.none, NSNull()) },
    Case(name: "nsobject") { check(NSObject(), NSObject()) },
    Case(name: "nsobject-subclass") {
      let changed = ZooObjectSubclass()
      changed.title = "second"
      check(ZooObjectSubclass(), changed)
    },
    Case(name: "nsdecimalnumber") { check(NSDecimalNumber(string: "1.5"), NSDecimalNumber(string: "2.25")) },
    Case(name: "nsvalue-range") { check(NSValue(range: NSRange(location: 1, length: 2)), NSValue(range: NSRange(location: 3, length: 4))) },
    Case(name: "nsattributedstring") { check(NSAttributedString(string: "a"), NSAttributedString(string: "b")) },
    Case(name: "nsindexset") { check(NSIndexSet(index: 1), NSIndexSet(indexesIn: NSRange(location: 2, length: 3))) },
    Case(name: "foundation-in-any") {
      check([NSNumber(value: 1), NSString(string: "x"), NSArray(array: [1])] as [Any], [NSNumber(value: 2), NSString(string: "x")] as [Any])
    },
  ]

  /// Values that reflection shows badly or not at all.
  @MainActor
  static let reflectionCases: [Case] = [
    Case(name: "existential") { check(ZooSquare(side: 2) as any ZooShape, ZooCircle(radius: 1) as any ZooShape) },
    Case(name: "existential-same-type") { check(ZooSquare(side: 2) as any ZooShape, ZooSquare(side: 3) as any ZooShape) },
    Case(name: "existential-class-bound") { check(ZooLiveService() as any ZooService, ZooLiveService() as any ZooService) },
    Case(name: "any") { check(1 as Any, "one" as Any) },
    Case(name: "anyobject") { check(ZooOwner("a") as AnyObject, ZooOwner("b") as AnyObject) },
    Case(name: "custom-mirror-collection") { check(ZooPlaylist(["a"]), ZooPlaylist(["a", "b"])) },
    Case(name: "custom-mirror-collection-in-place") {
      // The same instance before and after: nothing can tell what it held before.
      let playlist = ZooPlaylist(["a"])
      check(playlist, playlist)
      playlist.songs.append("b")
    },
    Case(name: "custom-mirror-dictionary") { check(ZooTags(entries: [("a", 1)]), ZooTags(entries: [("a", 2), ("b", 3)])) },
    Case(name: "actor") { check(ZooCounter(), ZooCounter()) },
    Case(name: "metatype") { check(Int.self as Any.Type, [String: Int].self as Any.Type) },
    Case(name: "existential-metatype") { check(ZooSquare.self as any ZooShape.Type, ZooCircle.self as any ZooShape.Type) },
    Case(name: "closure") { check({ 1 } as () -> Int, { 2 } as () -> Int) },
    Case(name: "sendable-closure") { check({ $0 + 1 } as @Sendable (Int) -> Int, { $0 * 2 } as @Sendable (Int) -> Int) },
    Case(name: "weak-unowned") {
      let owner = ZooOwner("owner")
      let root = ZooNode(0, parent: nil, owner: owner)
      var gone: ZooNode? = ZooNode(9, parent: nil, owner: owner)
      let orphan = ZooNode(1, parent: gone, owner: owner)
      gone = nil
      check(ZooNode(1, parent: root, owner: owner), orphan)
    },
    Case(name: "description-traps") { check(ZooTrap(), ZooTrap()) },
    Case(name: "description-traps-object") { check(ZooTrapObject(), ZooTrapObject()) },
    Case(name: "description-traps-enum") { check(ZooTrapEnum.a, ZooTrapEnum.b(2)) },
    Case(name: "property-wrapper") { check(ZooPlayer(volume: 1), ZooPlayer(volume: 4)) },
    Case(name: "key-path") { check(\ZooPoint.x as PartialKeyPath<ZooPoint>, \ZooPoint.y as PartialKeyPath<ZooPoint>) },
    Case(name: "object-identifier") { check(ObjectIdentifier(ZooOwner.self), ObjectIdentifier(ZooNode.self)) },
    Case(name: "unsafe-pointer") {
      let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 2)
      check(UnsafePointer(pointer), UnsafePointer(pointer + 1))
    },
  ]

  /// The value types of Foundation a state commonly holds.
  @MainActor
  static let foundationValueCases: [Case] = [
    Case(name: "date") { check(Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_700_000_000.25)) },
    Case(name: "url") { check(URL(string: "https://example.com/a")!, URL(fileURLWithPath: "/tmp/x")) },
    Case(name: "uuid") { check(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)), UUID()) },
    Case(name: "decimal") { check(Decimal(string: "19.99")!, Decimal(string: "12345678901234567890.123")!) },
    Case(name: "data-10mb") {
      var big = Data(count: 10_000_000)
      let old = big
      big[9_999_999] = 1
      check(old, big)
    },
    Case(name: "date-components") { check(DateComponents(year: 2024), DateComponents(year: 2025, month: 1)) },
    Case(name: "url-components") { check(URLComponents(string: "https://a.example/x")!, URLComponents(string: "https://a.example/y?q=1")!) },
    Case(name: "character-set") { check(CharacterSet.letters, CharacterSet.decimalDigits) },
  ]

  /// Errors of every kind, in a state's `(any Error)?`.
  @MainActor
  static let errorCases: [Case] = [
    Case(name: "error-enum") { check(ZooRequestState(error: ZooError.offline), ZooRequestState(error: ZooError.status(code: 500))) },
    Case(name: "error-struct") { check(ZooRequestState(error: ZooStructError(reason: "a")), ZooRequestState(error: ZooStructError(reason: "b"))) },
    Case(name: "error-class") { check(ZooRequestState(error: ZooClassError("a")), ZooRequestState(error: ZooClassError("b"))) },
    Case(name: "error-localized") { check(ZooRequestState(), ZooRequestState(error: ZooLocalizedError())) },
    Case(name: "error-cocoa") { check(ZooRequestState(error: CocoaError(.fileNoSuchFile)), ZooRequestState(error: CocoaError(.fileReadNoPermission))) },
    Case(name: "error-url") { check(ZooRequestState(error: URLError(.timedOut)), ZooRequestState(error: URLError(.notConnectedToInternet))) },
    Case(name: "error-decoding") { check(ZooRequestState(), ZooRequestState(error: ZooErrors.decoding())) },
    Case(name: "error-encoding") { check(ZooRequestState(), ZooRequestState(error: ZooErrors.encoding())) },
    Case(name: "error-cancellation") { check(ZooRequestState(), ZooRequestState(error: CancellationError())) },
    Case(name: "error-nserror-user-info") {
      let underlying = NSError(domain: "Inner", code: 1)
      check(
        ZooRequestState(error: NSError(domain: "Net", code: 1)),
        ZooRequestState(error: NSError(domain: "Net", code: 1, userInfo: [NSUnderlyingErrorKey: underlying, "n": 1])))
    },
    Case(name: "error-bare") { check(ZooError.offline as any Error, NSError(domain: "Net", code: 3) as any Error) },
  ]
}
