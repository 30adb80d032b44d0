import LoupeCore

/// `loupe/stores`: the live stores, parents before children.
/// Params `{}`; result `{stores: [{id, type, parent, identity}]}`.
public struct StoresRequest: RequestType, Hashable {
  public static let method = "loupe/stores"
  public init() {}
  public init(params: JSON?) throws(ResponseError) { _ = try ObjectReader.params(params, of: Self.method) }
  public var params: JSON? { .object([:]) }

  public static func encodeResult(_ result: [StoreInfo]) -> JSON {
    let stores: [JSON] = result.map { store in
      [
        "id": .string(store.id), "type": .string(store.type),
        "parent": store.parent.map(JSON.string) ?? .null, "identity": .string(store.identity),
      ]
    }
    return ["stores": .array(stores)]
  }

  public static func decodeResult(_ json: JSON) throws(ResponseError) -> [StoreInfo] {
    var stores: [StoreInfo] = []
    for item in try ObjectReader.result(json, of: method).array("stores") {
      let store = try ObjectReader.result(item, of: method)
      stores.append(
        StoreInfo(
          id: try store.string("id"), type: try store.string("type"), parent: try store.optionalString("parent"),
          identity: try store.string("identity")))
    }
    return stores
  }
}
