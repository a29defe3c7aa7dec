package dev.workcell.mirror.client;

import dev.workcell.mirror.config.MirrorSettings;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** The S3 client: the configured endpoint, and credentials from the settings, their files, or the SDK's chain. */
@ApplicationScoped
public class BucketProducer {

  @Produces
  @Singleton // an Optional cannot have a client proxy
  Optional<Bucket> bucket(MirrorSettings settings) {
    MirrorSettings.S3 s3 = settings.s3();
    if (s3.endpoint().isEmpty()) {
      Log.warn("no S3 endpoint configured (WORKCELL_MIRROR_S3_ENDPOINT): the mirror is off");
      return Optional.empty();
    }
    Optional<String> access = s3.accessKey().or(() -> s3.accessKeyFile().map(BucketProducer::read));
    Optional<String> secret = s3.secretKey().or(() -> s3.secretKeyFile().map(BucketProducer::read));
    var builder = S3Client.builder()
        .endpointOverride(URI.create(s3.endpoint().get()))
        .region(Region.of(s3.region()))
        .forcePathStyle(s3.pathStyle())
        .httpClient(httpClient())
        .credentialsProvider(access.isPresent() && secret.isPresent()
            ? StaticCredentialsProvider.create(AwsBasicCredentials.create(access.get(), secret.get()))
            : DefaultCredentialsProvider.builder().build());
    return Optional.of(new Bucket(builder.build(), s3.bucket()));
  }

  /**
   * Apache HttpClient 5 with a pool that drops a connection idle for 5 s, well before a server's own
   * idle close (Jetty's default in s3proxy: 30 s): with the JDK's URL connection a PUT now and then went out
   * on a kept-alive socket the server had just closed and failed with "Error writing request body to
   * server" (about 1 in 200 on a first sync), since a streamed body cannot be resent by that client.
   */
  public static SdkHttpClient httpClient() {
    return Apache5HttpClient.builder().maxConnections(32).connectionMaxIdleTime(Duration.ofSeconds(5)).build();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
