package dev.workcell.mirror.service;

import dev.workcell.mirror.client.Bucket;
import dev.workcell.mirror.client.BucketProducer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** A real S3 server for the tests: s3proxy (its jar copied by the build) with a filesystem backend, as a process. */
final class S3Server implements AutoCloseable {

  static final String BUCKET = "mirror-test";
  private static final String ID = "test-access";
  private static final String SECRET = "test-secret-key-0123456789";

  private final Path dir;
  private final int port;
  private Process process;

  S3Server(Path dir) throws IOException {
    this.dir = dir;
    try (ServerSocket socket = new ServerSocket(0)) {
      this.port = socket.getLocalPort();
    }
    Files.createDirectories(dir.resolve("data"));
    Files.writeString(dir.resolve("s3proxy.conf"), String.join("\n",
        "s3proxy.endpoint=http://127.0.0.1:" + port,
        "s3proxy.authorization=aws-v2-or-v4",
        "s3proxy.identity=" + ID,
        "s3proxy.credential=" + SECRET,
        "jclouds.provider=filesystem-nio2",
        "jclouds.filesystem.basedir=" + dir.resolve("data"), ""));
    start();
    client().createBucket(b -> b.bucket(BUCKET));
  }

  void start() throws IOException {
    Path jar = Path.of("target/s3proxy/s3proxy.jar");
    process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-Xmx128m", "-jar", jar.toAbsolutePath().toString(), "--properties",
        dir.resolve("s3proxy.conf").toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("s3proxy.log").toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException notYet) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException(e);
        }
      }
      if (!process.isAlive()) {
        throw new IOException("s3proxy exited: " + Files.readString(dir.resolve("s3proxy.log")));
      }
    }
    throw new IOException("s3proxy did not listen in 60 s");
  }

  void stop() throws InterruptedException {
    process.destroy();
    process.waitFor(20, TimeUnit.SECONDS);
  }

  String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  static String accessKey() {
    return ID;
  }

  static String secretKey() {
    return SECRET;
  }

  S3Client client() {
    return S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:" + port)).region(Region.US_EAST_1)
        .forcePathStyle(true).httpClient(BucketProducer.httpClient())
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ID, SECRET))).build();
  }

  Bucket bucket() {
    return new Bucket(client(), BUCKET);
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
