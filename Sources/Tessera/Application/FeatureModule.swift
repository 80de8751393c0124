/// How a feature module plugs into an app: one entry point that registers its routes (with the
/// controller factory of each) and the regions it offers to other modules.
///
/// The composition root registers every module; modules never see each other, only the keys and
/// routes they choose to make public.
public protocol FeatureModule: Sendable {
    /// Registers the module's routes, and the regions it offers other modules, in `app`.
    func register(in app: inout ApplicationBuilder)
}
