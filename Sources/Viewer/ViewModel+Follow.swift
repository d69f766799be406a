import Save
import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// Following in the model (V9): whether the reader has caught up with its writer, what the
/// followed input says of itself, and the loop woken as rows are published.
extension ViewModel {
    /// Takes in whether the reader has waited for its writer for as long as a pause takes (P4:
    /// `InputOptions.windowPause`), and what the input says of itself (`--follow`: truncated,
    /// replaced). - Returns: whether anything changed.
    func takeFollowing() -> Bool {
        let progress = loader.progress
        let since = progress.waitingSince
        let caughtUp = !state.loading ? false : since.map { ViewLoader.milliseconds() - $0 >= InputOptions.windowPause } ?? false
        var changed = false
        if !state.follow.backlogRead && progress.rowsAtFirstWait != nil {
            state.follow.backlogRead = true
            state.takeNewRows(loader.store)  // a sort asked for while the backlog was read starts
            handWork()
            changed = true
        }
        if state.follow.awaitingCatchUp, let rows = progress.rowsAtFirstWait {
            state.fileRead(rows: rows)
            changed = true
        }
        if caughtUp != state.follow.caughtUp {
            state.follow.caughtUp = caughtUp
            state.takeNewRows(loader.store)
            handWork()
            changed = true
        }
        if let notices, let notice = notices(), notice.count != noticed {
            noticed = notice.count
            state.message = notice.text
            // Where the file was cut: the rows read before stay as read (spooled, V9).
            let told = loader.progress.rowsAtNews  // recorded before the news was
            let before = notice.count <= told.count ? told[notice.count - 1] : 0
            if before > 0 {
                state.message = notice.text + " · rows 1–\(Wording.grouped(before)) are as read before it"
            }
            changed = true
        }
        return changed
    }

    /// `wake` is called (on the reading thread) whenever rows are published: the key loop draws
    /// them at once rather than at its next timeout (V9). Nil: none is called.
    package func setLoaderWake(_ wake: (@Sendable () -> Void)?) {
        loader.wake.withLock { $0 = wake }
    }
}
