package dev.workcell.mirror.service;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** The service under test gets a real S3 server and a disk root of its own (a temporary folder). */
public class S3MirrorResource implements QuarkusTestResourceLifecycleManager {

  static S3Server server;
  static Path diskRoot;
  private Path dir;

  @Override
  public Map<String, String> start() {
    try {
      dir = Files.createTempDirectory("mirror-service");
      diskRoot = Files.createDirectories(dir.resolve("disks/default"));
      server = new S3Server(dir.resolve("s3"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Map.of("workcell.mirror.s3.endpoint", server.endpoint(), "workcell.mirror.s3.bucket", S3Server.BUCKET,
        "workcell.mirror.s3.access-key", S3Server.accessKey(), "workcell.mirror.s3.secret-key", S3Server.secretKey(),
        "workcell.mirror.disk-root", dir.resolve("disks").toString(), "workcell.mirror.discovery-interval", "200ms");
  }

  @Override
  public void stop() {
    try {
      server.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
