//! The health service (`grpc.health.v1.Health`): tonic-health's, except that a `Watch` ends on
//! drain. tonic-health's watches never end, so one open watch (a balancer's, a probe's) would hold
//! the server's drain until `--drain-timeout-ms`; here a watch that has told its client
//! NOT_SERVING after SIGTERM then ends with OK.

use super::handler::QiliService;
use futures::{Stream, StreamExt};
use std::pin::Pin;
use tonic::{Request, Response, Status};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_server::{Health, HealthServer};
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};
use tonic_health::server::{HealthReporter, HealthService};

/// The answers of one `Health/Watch`.
pub type HealthStream = Pin<Box<dyn Stream<Item = Result<HealthCheckResponse, Status>> + Send>>;

/// tonic-health's service with watches that end on drain.
pub struct DrainingHealth {
    inner: HealthService,
    service: QiliService,
}

/// The health server for `reporter`'s statuses, its watches ending once `service` drains.
pub fn server(reporter: HealthReporter, service: QiliService) -> HealthServer<DrainingHealth> {
    HealthServer::new(DrainingHealth {
        inner: HealthService::from_health_reporter(reporter),
        service,
    })
}

#[tonic::async_trait]
impl Health for DrainingHealth {
    async fn check(
        &self,
        request: Request<HealthCheckRequest>,
    ) -> Result<Response<HealthCheckResponse>, Status> {
        self.inner.check(request).await
    }

    type WatchStream = HealthStream;

    async fn watch(
        &self,
        request: Request<HealthCheckRequest>,
    ) -> Result<Response<HealthStream>, Status> {
        let statuses = self.inner.watch(request).await?.into_inner();
        // The server drains before it reports NOT_SERVING, so the first status other than
        // SERVING seen while draining is the last one: the watch ends after sending it.
        let state = (statuses, self.service.clone(), false);
        let answers = futures::stream::unfold(state, |(mut statuses, service, done)| async move {
            if done {
                return None;
            }
            let answer = statuses.next().await?;
            let last = service.is_draining()
                && answer
                    .as_ref()
                    .is_ok_and(|a| a.status() != ServingStatus::Serving);
            Some((answer, (statuses, service, last)))
        });
        Ok(Response::new(Box::pin(answers)))
    }
}
