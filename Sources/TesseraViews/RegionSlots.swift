/// The region slots of a view, one property per `{% region %}` in its template: the compiler
/// generates a `Regions<Fill>` type for each view that has slots.
///
/// A page controller returns its view's `Regions` filled with its child controllers, so a page
/// that leaves out a required slot, or fills one its template does not have, does not compile.
/// `Fill` is what goes in a slot: the framework's `Region`.
public protocol RegionSlots<Fill> {
    associatedtype Fill
    /// Every slot by its template name, in template order, with what fills it (`nil`: empty).
    var filled: [(name: String, fill: Fill?)] { get }
}

/// The slots of a view that has none.
public struct NoRegions<Fill>: RegionSlots {
    /// No slots.
    public init() {}

    /// None.
    public var filled: [(name: String, fill: Fill?)] { [] }
}
