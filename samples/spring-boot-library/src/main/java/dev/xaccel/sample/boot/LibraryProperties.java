package dev.xaccel.sample.boot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code library.*}: where the files are and who may read them. */
@ConfigurationProperties(prefix = "library")
public class LibraryProperties {

    /** The library's root directory (the same as xaccel.locations[0].root); generated when not set. */
    private Path root;

    /** Users of the library: name, password (a Spring Security password, e.g. {noop}demo) and roles. */
    private List<User> users = new ArrayList<>();

    public static class User {
        private String name;
        private String password;
        private List<String> roles = new ArrayList<>(List.of("READER"));

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }

        public List<String> getRoles() {
            return roles;
        }

        public void setRoles(List<String> roles) {
            this.roles = roles;
        }
    }

    public Path getRoot() {
        return root;
    }

    public void setRoot(Path root) {
        this.root = root;
    }

    public List<User> getUsers() {
        return users;
    }

    public void setUsers(List<User> users) {
        this.users = users;
    }
}
