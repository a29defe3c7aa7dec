package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.command.InspectVolumeResponse;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxNames;
import io.quarkus.logging.Log;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The named volume that brings celld into every sandbox, whatever its image. It is named after the
 * celld it holds, so a new build gets a new volume (and every sandbox on the old one drifts), and it
 * is filled by Docker's copy-up of {@code /usr/local/bin} from Workcell's own image: no process
 * writes it, the binary keeps root ownership and mode 0555, and sandboxes mount it read-only.
 */
final class CelldVolume {

  /** Workcell's sandbox image, the celld source when none is configured. */
  static final String DEFAULT_IMAGE = "workcell/sandbox:dev";
  /** Set by bin/lib/sandbox-image.sh on Workcell's images: SHA-256 of the celld inside. */
  static final String CELLD_SHA_LABEL = "dev.workcell.celld-sha256";
  /** Where Workcell's image keeps celld; mounting the empty volume here copies it in. */
  private static final String IMAGE_DIR = "/usr/local/bin";

  /** The celld of this moment: the image it comes from, its key (celld hash or image id) and the volume. */
  record Source(String image, String key, boolean hashed, String volume) {}

  private final DockerClient docker;
  private final HelperContainer helpers;
  private final Optional<String> configuredImage;
  private final String runtimeImage;
  private final String instance;
  private final Set<String> verified = ConcurrentHashMap.newKeySet();

  CelldVolume(DockerClient docker, HelperContainer helpers, Optional<String> configuredImage, String runtimeImage, String instance) {
    this.docker = docker;
    this.helpers = helpers;
    this.configuredImage = configuredImage;
    this.runtimeImage = runtimeImage;
    this.instance = instance;
  }

  /** The celld a sandbox made now gets; only reads the engine (for drift checks). */
  Source current() {
    if (configuredImage.isEmpty()) {
      Optional<InspectImageResponse> runtime = inspect(runtimeImage);
      if (runtime.isPresent() && labels(runtime.get()).containsKey(CELLD_SHA_LABEL)) {
        return source(runtimeImage, runtime.get());
      }
    }
    String image = configuredImage.orElse(DEFAULT_IMAGE);
    return source(image, inspect(image).orElseThrow(() -> new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE,
        "celld's image " + image + " is not on the engine (bin/workcell up builds it; see docker/sandbox)")));
  }

  /**
   * {@link #current()}, its volume created and filled if missing and, once per volume and process,
   * proven to hold exactly that celld (one created but never filled, say before a crash, is filled now).
   */
  synchronized Source ensure() {
    Source source = current();
    Map<String, String> wanted = Map.of(SandboxLabels.MANAGED, "true", SandboxLabels.INSTANCE, instance,
        SandboxLabels.CELLD, source.key());
    boolean exists;
    try {
      Map<String, String> found = labels(docker.inspectVolumeCmd(source.volume()).exec().getLabels());
      if (found.isEmpty()) {
        // Docker made it, empty, for a create that raced its removal: nobody's volume, so make it again.
        removeUnlabelled(source.volume());
        exists = false;
      } else if (!wanted.entrySet().stream().allMatch(e -> e.getValue().equals(found.get(e.getKey())))) {
        throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "volume " + source.volume() + " is not celld's volume of this deployment");
      } else {
        exists = true;
      }
    } catch (NotFoundException absent) {
      exists = false;
    }
    if (exists && verified.contains(source.volume())) {
      return source;
    }
    verified.remove(source.volume());
    if (!exists) {
      docker.createVolumeCmd().withName(source.volume()).withDriver("local").withLabels(wanted).exec();
    }
    // Mounting the volume over the image's own celld directory makes Docker copy it in while empty.
    Mount mount = new Mount().withType(MountType.VOLUME).withSource(source.volume()).withTarget(IMAGE_DIR).withReadOnly(true);
    int code = helpers.run("celld-volume", source.image(), "1000:1000", verifyCommand(source), List.of(mount), List.of());
    if (code != 0) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "volume " + source.volume() + " does not hold a working celld of "
          + source.image() + " (check exited " + code + "); remove the volume so it is filled again");
    }
    verified.add(source.volume());
    Log.infof("celld volume %s ready (from %s)", source.volume(), source.image());
    removeSuperseded(source.volume());
    return source;
  }

  private void removeUnlabelled(String volume) {
    try {
      docker.removeVolumeCmd(volume).exec();
    } catch (ConflictException inUse) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "volume " + volume + " has no labels and is in use; remove it", inUse);
    } catch (NotFoundException gone) {
      // removed meanwhile
    }
  }

  /** The binary must match the image's label (when it has one) and run. */
  private static List<String> verifyCommand(Source source) {
    String celld = IMAGE_DIR + "/celld";
    if (!source.hashed()) {
      return List.of(celld, "--version");
    }
    return List.of("sh", "-c", "printf '%s  %s\\n' \"$1\" \"$2\" | sha256sum -c --status && \"$2\" --version >/dev/null",
        "verify", source.key(), celld);
  }

  /** Older celld volumes of this deployment; one still mounted by a (stopped) sandbox stays until the next new celld. */
  private void removeSuperseded(String keep) {
    List<InspectVolumeResponse> volumes = docker.listVolumesCmd()
        .withFilter("label", List.of(SandboxLabels.INSTANCE + "=" + instance, SandboxLabels.CELLD)).exec().getVolumes();
    for (InspectVolumeResponse volume : volumes == null ? List.<InspectVolumeResponse>of() : volumes) {
      if (keep.equals(volume.getName()) || !"true".equals(labels(volume.getLabels()).get(SandboxLabels.MANAGED))) {
        continue;
      }
      try {
        docker.removeVolumeCmd(volume.getName()).exec();
        verified.remove(volume.getName());
        Log.infof("removed superseded celld volume %s", volume.getName());
      } catch (ConflictException | NotFoundException inUseOrGone) {
        // a sandbox still mounts it (it drifts and is recreated on its next use), or it is gone already
      }
    }
  }

  private Source source(String image, InspectImageResponse inspect) {
    String sha = labels(inspect).get(CELLD_SHA_LABEL);
    boolean hashed = sha != null && sha.matches("[0-9a-f]{64}");
    String key = hashed ? sha : inspect.getId().replaceFirst("^sha256:", "");
    String prefix = SandboxNames.DEFAULT_INSTANCE.equals(instance) ? "workcell-celld-" : "workcell-" + instance + "-celld-";
    return new Source(image, key, hashed, prefix + key.substring(0, 16));
  }

  private Optional<InspectImageResponse> inspect(String image) {
    try {
      return Optional.of(docker.inspectImageCmd(image).exec());
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  private static Map<String, String> labels(InspectImageResponse inspect) {
    return inspect.getConfig() == null ? Map.of() : labels(inspect.getConfig().getLabels());
  }

  private static Map<String, String> labels(Map<String, String> labels) {
    return labels == null ? Map.of() : labels;
  }
}
