package dev.lifecycle.shapes;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.task.TaskExecutor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The page that uses every shape once and says what each gave. */
@RestController
class ShapesController {

	private final RequestGreeting greeting;

	private final SessionBasket basket;

	private final Stamp stamp;

	private final Visits visits;

	private final Echo echo;

	private final Notifier notifier;

	private final ExpensiveReport report;

	private final PriceBook prices;

	private final ExecutorService reportPool;

	private final ExecutorService meteredPool;

	private final TaskExecutor bulk;

	private final Ingest ingest;

	ShapesController(RequestGreeting greeting, SessionBasket basket, Stamp stamp, Visits visits, Echo echo,
			Notifier notifier, @Lazy ExpensiveReport report, PriceBook prices,
			@Qualifier("reportPool") ExecutorService reportPool, @Qualifier("meteredPool") ExecutorService meteredPool,
			@Qualifier("bulk") TaskExecutor bulk, Ingest ingest) {
		this.greeting = greeting;
		this.basket = basket;
		this.stamp = stamp;
		this.visits = visits;
		this.echo = echo;
		this.notifier = notifier;
		this.report = report;
		this.prices = prices;
		this.reportPool = reportPool;
		this.meteredPool = meteredPool;
		this.bulk = bulk;
		this.ingest = ingest;
	}

	@GetMapping("/shapes")
	Map<String, Object> shapes() throws Exception {
		Map<String, Object> shapes = new LinkedHashMap<>();
		shapes.put("request", this.greeting.id().length());
		shapes.put("session", this.basket.add());
		shapes.put("prototype", this.stamp.number() != this.stamp.number());
		shapes.put("jpa", this.visits.record("/shapes"));
		shapes.put("integration", this.echo.echo("shapes"));
		shapes.put("async", this.notifier.notify("mail").get(10, TimeUnit.SECONDS).startsWith("mail on main-"));
		shapes.put("lazy", this.report.render());
		shapes.put("cache", this.prices.price("shapes") + this.prices.price("shapes"));
		shapes.put("factoryPool", this.reportPool.submit(() -> "ran").get(10, TimeUnit.SECONDS));
		shapes.put("meteredPool", this.meteredPool.submit(() -> "ran").get(10, TimeUnit.SECONDS));
		java.util.concurrent.CompletableFuture<String> bulkRun = new java.util.concurrent.CompletableFuture<>();
		this.bulk.execute(() -> bulkRun.complete(Thread.currentThread().getName()));
		shapes.put("qualified", bulkRun.get(10, TimeUnit.SECONDS).startsWith("bulk-"));
		shapes.put("quartz", QuartzTicks.ticks.get() > 0);
		shapes.put("batch", ImportJobConfiguration.written.size());
		this.ingest.submit("shapes");
		return shapes;
	}

}
