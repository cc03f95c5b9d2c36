import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphPostgres

@Suite(.postgres) struct PostgresNotificationTests {
    @Test func aNotificationReachesAListenerWhenTheSenderCommits() throws {
        let (listener, sender) = (try PostgresTestServer.connect(), try PostgresTestServer.connect())
        let channel = PostgresTestServer.uniqueName("saves")
        try listener.listen(channel)
        try sender.beginWriteTransaction()
        try sender.notify(channel, payload: "Fruit 1-3 ✓")
        #expect(try listener.notifications(waitingUpTo: .milliseconds(100)).isEmpty, "not before the commit")
        try sender.commit()
        let received = try listener.notifications(waitingUpTo: .seconds(5))
        #expect(
            received == [
                PostgresNotification(channel: channel, payload: "Fruit 1-3 ✓", senderProcessID: sender.backendProcessID)
            ])
        try sender.writeTransaction { try sender.notify(channel, payload: "again") }
        try sender.beginWriteTransaction()
        try sender.notify(channel, payload: "rolled back")
        sender.rollback()
        try sender.notify("other-\(channel)")
        #expect(try listener.notifications(waitingUpTo: .seconds(5)).map(\.payload) == ["again"])
        try listener.unlisten(channel)
        try sender.notify(channel)
        #expect(try listener.notifications(waitingUpTo: .milliseconds(100)).isEmpty)
    }

    @Test func anAdvisoryLockIsHeldByOneSessionAtATime() throws {
        let (first, second) = (try PostgresTestServer.connect(), try PostgresTestServer.connect())
        let name = PostgresTestServer.uniqueName("migration")
        try first.withAdvisoryLock(name) { () throws in
            let error = #expect(throws: PersistenceError.self) {
                try second.withAdvisoryLock(name, timeout: .milliseconds(100)) {}
            }
            #expect(error?.code == .storeLocked)
            #expect(try second.withAdvisoryLock("\(name)-other", timeout: .milliseconds(100)) { 1 } == 1)
        }
        #expect(try second.withAdvisoryLock(name, timeout: .seconds(5)) { 2 } == 2, "released after the body")
        #expect(try second.rows("SELECT current_setting('lock_timeout')") == [[.text("0")]])
    }
}
