import CommissionCore
import CommissionStore
import Foundation
import GRDB

/// The people of the book in its file: the owner (the first account), members, and the one-time
/// invitations that add more.
extension SQLiteStore: TeamStore {
    public func members() async throws -> [Member] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT id, username, role FROM account ORDER BY role = 'owner' DESC, username COLLATE NOCASE"
            ).map {
                Member(
                    account: Account(id: Account.ID($0[0] as Int64), username: $0[1]),
                    role: MemberRole(rawValue: $0[2]) ?? .member
                )
            }
        }
    }

    public func role(of account: Account.ID) async throws -> MemberRole? {
        try await read { db in
            try String.fetchOne(db, sql: "SELECT role FROM account WHERE id = ?", arguments: [account.rawValue])
                .flatMap(MemberRole.init(rawValue:))
        }
    }

    public func createInvitation(
        tokenDigest: String,
        role: MemberRole,
        invitedBy: Account.ID?,
        expiresAt: Date
    ) async throws {
        try await write([], bump: false) { db in
            if let invitedBy {
                guard
                    try String.fetchOne(
                        db,
                        sql: "SELECT role FROM account WHERE id = ?",
                        arguments: [invitedBy.rawValue]
                    ) == MemberRole.owner.rawValue
                else {
                    throw StoreError.invalid(
                        field: "invitation",
                        reason: "only an owner of the book can invite people to it."
                    )
                }
            }
            try db.execute(
                sql: "INSERT INTO invitation (tokenDigest, role, invitedBy, expiresAt) VALUES (?, ?, ?, ?)",
                arguments: [tokenDigest, role.rawValue, invitedBy?.rawValue, Int64(expiresAt.timeIntervalSince1970)]
            )
        }
    }

    public func invitation(tokenDigest: String, now: Date) async throws -> Invitation? {
        try await read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT invitation.role, account.username, invitation.expiresAt, EXISTS (SELECT 1 FROM account)
                    FROM invitation LEFT JOIN account ON account.id = invitation.invitedBy
                    WHERE invitation.tokenDigest = ? AND invitation.usedAt IS NULL AND invitation.expiresAt > ?
                    """,
                arguments: [tokenDigest, Int64(now.timeIntervalSince1970)]
            ).map {
                var invitation = Invitation(
                    role: MemberRole(rawValue: $0[0]) ?? .member,
                    invitedBy: $0[1],
                    expiresAt: Date(timeIntervalSince1970: TimeInterval($0[2] as Int64))
                )
                invitation.isSpent = invitation.isOwnersLink && $0[3] as Bool
                return invitation
            }
        }
    }

    public func acceptInvitation(
        tokenDigest: String,
        username: String,
        passwordHash: String,
        now: Date
    ) async throws -> Account {
        let name = try StoreInput.username(username)
        let seconds = Int64(now.timeIntervalSince1970)
        return try await write([], bump: false) { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT role, invitedBy IS NULL FROM invitation WHERE tokenDigest = ? AND usedAt IS NULL AND expiresAt > ?
                        """,
                    arguments: [tokenDigest, seconds]
                )
            else {
                throw StoreError.invalid(
                    field: "invitation",
                    reason: "this link has been used or has expired; ask for a new one."
                )
            }
            let role: String = row[0]
            if role == MemberRole.owner.rawValue && row[1] as Bool,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM account") ?? 0 > 0
            {
                throw StoreError.invalid(field: "invitation", reason: Invitation.spentReason)
            }
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM account WHERE username = ?", arguments: [name]) ?? 0 > 0
            {
                throw StoreError.invalid(
                    field: "user name",
                    reason: "\"\(name)\" is taken in this book; choose another."
                )
            }
            try db.execute(
                sql: "INSERT INTO account (username, passwordHash, createdAt, role) VALUES (?, ?, ?, ?)",
                arguments: [name, passwordHash, seconds, role]
            )
            let id = db.lastInsertedRowID
            try db.execute(
                sql: "UPDATE invitation SET usedAt = ?, accountId = ? WHERE tokenDigest = ?",
                arguments: [seconds, id, tokenDigest]
            )
            return Account(id: Account.ID(id), username: name)
        }
    }
}
