import ServiceLifecycle

/// Runs ``AccountsService/followSessionEnds()`` beside the server, until it shuts down:
/// ``AccountsModule`` registers it, so every app that signs shoppers in keeps its copy of the
/// session ends current.
struct SessionEndsFollower: Service {
    let accounts: AccountsService

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await accounts.followSessionEnds()
        }
    }
}
