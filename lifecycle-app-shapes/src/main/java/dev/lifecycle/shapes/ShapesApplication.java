package dev.lifecycle.shapes;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.integration.annotation.IntegrationComponentScan;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * An application written the way users write them: every bean shape that Spring and its
 * projects make ordinary, with the starter added and nothing configured for it. Its one
 * page, {@code /shapes}, uses each shape once.
 */
@SpringBootApplication
@EnableAsync
@EnableScheduling
@EnableCaching
@IntegrationComponentScan
public class ShapesApplication {

	public static void main(String[] args) {
		SpringApplication.run(ShapesApplication.class, args);
	}

}
