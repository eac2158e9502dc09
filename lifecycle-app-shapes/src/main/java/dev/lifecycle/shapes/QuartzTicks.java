package dev.lifecycle.shapes;

import java.util.concurrent.atomic.AtomicLong;

import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.quartz.QuartzJobBean;

/**
 * A Quartz job fired every 100 ms by Boot's scheduler (a FactoryBean that starts
 * non-daemon threads).
 */
@Configuration(proxyBeanMethods = false)
class QuartzTicks {

	static final AtomicLong ticks = new AtomicLong();

	@Bean
	JobDetail tickJob() {
		return JobBuilder.newJob(TickJob.class).withIdentity("tick").storeDurably().build();
	}

	@Bean
	Trigger tickTrigger(JobDetail tickJob) {
		return TriggerBuilder.newTrigger()
			.forJob(tickJob)
			.withIdentity("tick")
			.withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(1).withIntervalInMilliseconds(100))
			.build();
	}

	static final class TickJob extends QuartzJobBean {

		@Override
		protected void executeInternal(JobExecutionContext context) {
			ticks.incrementAndGet();
		}

	}

}
