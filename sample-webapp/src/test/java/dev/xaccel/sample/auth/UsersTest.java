package dev.xaccel.sample.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UsersTest {

    @Test
    void parsesUsersRolesAndHashedPasswords() {
        String hash = HexFormat.of().formatHex(Users.sha256("s3cret"));
        Users users = Users.parse("demo:demo:admin, alice:{sha256}" + hash + "\n bob:pw");
        assertEquals(Set.of("alice", "bob", "demo"), users.names());
        assertTrue(users.authenticate("demo", "demo").orElseThrow().admin());
        assertFalse(users.authenticate("bob", "pw").orElseThrow().admin());
        assertEquals("alice", users.authenticate("alice", "s3cret").orElseThrow().name());
        assertTrue(users.authenticate("alice", "{sha256}" + hash).isEmpty());
        assertTrue(users.authenticate("bob", "PW").isEmpty());
        assertTrue(users.authenticate("nobody", "pw").isEmpty());
        assertTrue(users.authenticate(null, "pw").isEmpty());
    }

    @Test
    void badEntriesNeverEchoThePassword() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Users.parse("ok:pw, broken-topsecret"));
        assertFalse(e.getMessage().contains("topsecret"), e.getMessage());
        assertTrue(e.getMessage().contains("#2"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Users.parse("x:topsecret:root"));
        assertFalse(e.getMessage().contains("topsecret"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Users.parse("x:{sha256}abcd"));
        assertTrue(e.getMessage().contains("[x]"), e.getMessage());
        assertTrue(Users.parse("  ").isEmpty());
    }
}
