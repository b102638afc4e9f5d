#!/usr/bin/env perl
# A Perl client driven by docs/openapi-3.0.json: OpenAPI::Client (1.07) reads the document and
# makes one method per operationId; every call below goes through one of them (no URL is built
# here). OpenAPI::Client validates each request against the document before sending it (a
# request it refuses is never sent: a violation here); it does not validate answers, so each
# answer is validated after it with the same JSON::Validator::Schema::OpenAPIv3 object
# (validate_response: status documented, headers, content type, body). Webhook bodies, as the
# receiver got them, are validated against components/schemas/WebhookEvent.
#
# Run by scripts/check-perl-openapi.sh (scripts/perl-openapi/serve.ts starts the server, a local
# site, a webhook receiver and a control endpoint, and passes their addresses):
#   SITEAUDIT_API, SITEAUDIT_TOKEN, SITEAUDIT_READ_TOKEN, SITEAUDIT_STARTER_TOKEN, SITEAUDIT_SITE, SITEAUDIT_RECEIVER, SITEAUDIT_CONTROL
# Exit code 0 when every step passed without a violation, 1 otherwise.
use Mojo::Base -strict, -signatures;
use Mojo::File qw(path);
use Mojo::JSON qw(decode_json encode_json false true);
use Mojo::UserAgent;
use Mojolicious ();
use OpenAPI::Client;
use Time::HiRes qw(sleep time);

my $document = path(shift // 'docs/openapi-3.0.json')->to_abs;
my %env      = map { $_ => $ENV{"SITEAUDIT_$_"} // die "SITEAUDIT_$_ is not set: run scripts/check-perl-openapi.sh\n" }
  qw(API TOKEN READ_TOKEN STARTER_TOKEN SITE RECEIVER CONTROL);
my $deadline = 120;

# Clients of the same generated class: the team's token, a token that may only read projects
# (403), one of a team on the starter plan (403 of the plan, 429), none (401). OpenAPI::Client 1.07 does not apply securitySchemes: the bearer token goes on
# every request through the user agent's start event, as its documentation does for headers.
sub new_client ($token) {
  my $c = OpenAPI::Client->new("file://$document", base_url => $env{API});
  $c->ua->on(start => sub ($ua, $tx) { $tx->req->headers->authorization("Bearer $token") }) if $token;
  $c->ua->request_timeout(60);
  # A transaction refused by the request validation is built with its 400 already set and never sent.
  $c->on(after_build_tx => sub ($c, $tx) { $tx->req->env->{refused} = $tx->res->code ? 1 : 0 });
  return $c;
}
my $client    = new_client($env{TOKEN});
my $read_only = new_client($env{READ_TOKEN});
my $starter   = new_client($env{STARTER_TOKEN});
my $anonymous = new_client(undef);
my $control   = Mojo::UserAgent->new;
my $validator = $client->validator;
my %route     = map { ($_->{operation_id} => $_) } $validator->routes->each;

# JSON::Validator 5.14 limitation (OpenAPIv3.pm, parameters_for_response): a response given as a
# Reference Object (`"401": {"$ref": "#/components/responses/Unauthenticated"}`) is read as is, so
# it has neither headers nor content and nothing of the answer is checked; a response header
# given as a Reference Object (`"ETag": {"$ref": "#/components/headers/ETag"}`) is copied with
# `in` and `name` added, a hash its resolver never saw, and validate() dies ("You have to call
# resolve() before validate()"). Both are valid OpenAPI 3.0. The loaded document's responses and
# response headers are replaced by the objects they reference, once, before any answer is read.
sub deref ($node) {
  my %seen;
  while (ref $node eq 'HASH' && $node->{'$ref'} && !ref $node->{'$ref'}) {
    die "a reference loop at $node->{'$ref'}\n" if $seen{$node->{'$ref'}}++;
    $node = $validator->get($node->{'$ref'} =~ s!^#!!r) // die "unresolved $node->{'$ref'}\n";
  }
  return $node;
}
for my $r (values %route) {
  my $responses = $validator->get([paths => $r->{path}, $r->{method}, 'responses']) || {};
  for my $status (keys %$responses) {
    my $response = $responses->{$status} = deref($responses->{$status});
    $response->{headers}{$_} = deref($response->{headers}{$_}) for keys %{$response->{headers} || {}};
  }
}

my (@violations, @failures, %statuses, %operations);
my ($answers, $refused_as_expected, $webhook_bodies) = (0, 0, 0);

sub report ($line) { print "$line\n" }

# Calls an operation by its operationId, validates the answer; returns the transaction.
sub call ($c, $op, $params = {}, @content) {
  my $r     = $route{$op} or die "no operation $op in the document\n";
  my $where = "$op ($r->{method} $r->{path})";
  my $tx    = $c->call($op => {%$params}, @content);
  if ($tx->req->env->{refused}) {
    push @violations, "$where: request refused by OpenAPI::Client: " . join '; ', map {"$_->{path}: $_->{message}"} @{$tx->res->json->{errors} || []};
    return $tx;
  }
  die "$where: no answer: " . ($tx->error // {})->{message} . "\n" unless $tx->res->code;
  $answers++;
  $statuses{$tx->res->code}++;
  $operations{$op}++;
  push @violations, map {"$where -> " . $tx->res->code . ": $_"} response_errors($r, $tx);
  return $tx;
}

# What JSON::Validator finds wrong with an answer, as validate_response reports it.
sub response_errors ($r, $tx) {
  my $res       = $tx->res;
  my $status    = $res->code;
  my $responses = $validator->get([paths => $r->{path}, $r->{method}, 'responses']) || {};
  # validate_response has no parameters for an undocumented status, so it would report nothing.
  return "status $status is not documented" unless $responses->{$status} || $responses->{default};

  my $type = $res->headers->content_type // '';
  my $body = {exists => 0};
  if (length $res->body) {
    my $value = $res->body;
    if ($type =~ m{^application/(?:[\w.-]+\+)?json\b}) {
      $value = eval { decode_json($value) };
      return "body is not JSON: $@" if $@;
    }
    # JSON::Validator 5.14 limitation (OpenAPIv3.pm, _validate_body): it negotiates the answer's
    # Content-Type against the documented media types, then looks the schema up under the header's
    # own text: `application/json; charset=utf-8` finds no schema and the body is validated
    # against none (anything passes). The media type is given without its parameters.
    $body = {exists => 1, content_type => $type =~ s/\s*;.*//sr, value => $value};
  }
  my $headers = sub ($name, $param) {
    my $value = $res->headers->header($name);
    return {exists => defined $value ? 1 : 0, value => $value};
  };
  # Headers are text: validated with OpenAPI::Client's coercion (a "60" is an integer). The body
  # is JSON: validated without coercion, so that a "60" where the document says integer fails.
  my @errors = $validator->validate_response([$r->{method}, $r->{path}, $status], {header => $headers, body => sub { {exists => 0} }});
  {
    local $validator->{coerce} = {};
    push @errors, grep { $_->path =~ m{^/body\b} }
      $validator->validate_response([$r->{method}, $r->{path}, $status], {header => $headers, body => sub {$body}});
  }
  return map {"$_"} @errors;
}

# The validation is not blind: copies of a real answer, each spoiled once, must each be reported.
sub probe ($op, $tx, %spoiled) {
  for my $what (sort keys %spoiled) {
    my $copy = Mojo::Transaction::HTTP->new;
    $copy->res->code($tx->res->code)->headers->from_hash($tx->res->headers->to_hash(1));
    $copy->res->body($tx->res->body);
    $spoiled{$what}->($copy->res, $tx->res->json);
    push @failures, "the validation did not see $what in $op" unless response_errors($route{$op}, $copy);
  }
}

# A request the document's required parameters make invalid: OpenAPI::Client must refuse it.
sub refused ($c, $op, $params = {}, @content) {
  my $tx = $c->call($op => {%$params}, @content);
  return $refused_as_expected++ if $tx->req->env->{refused};
  push @failures, "$op: sent although the document makes it invalid";
}

sub expect ($what, $ok, $detail = undef) {
  return 1 if $ok;
  push @failures, $what . (defined $detail ? ': ' . substr(encode_json($detail), 0, 400) : '');
  return 0;
}

sub wait_for ($what, $check) {
  my $end = time + $deadline;
  while (time < $end) {
    my $value = $check->();
    return $value if $value;
    sleep 0.25;
  }
  push @failures, "timed out waiting for $what";
  return undef;
}

sub poke ($what, $body = '') { $control->post("$env{CONTROL}/$what" => $body) }

sub flow {
  my $site = $env{SITE};

  # The caller and the quotas.
  my $me = call($client, 'getMe');
  expect('getMe', $me->res->code == 200, $me->res->json);
  expect('getUsage', call($client, 'getUsage')->res->code == 200);

  # A webhook subscribed to every event (http to the local receiver: the server allows private
  # addresses, as in development), its test event and its deliveries.
  my $hook = call($client, createWebhook => {},
    json => {url => "$env{RECEIVER}/perl", events => [qw(crawl.completed crawl.failed crawl.stopped export.ready recommendations.ready signal.detected)]});
  return unless expect('createWebhook 201', $hook->res->code == 201, $hook->res->json);
  my $webhook = $hook->res->json->{data}{id};
  expect('listWebhooks', call($client, listWebhooks => {limit => 10})->res->code == 200);
  expect('getWebhook', call($client, getWebhook => {webhook => $webhook})->res->code == 200);
  expect('updateWebhook', call($client, updateWebhook => {webhook => $webhook}, json => {description => 'Perl client'})->res->code == 200);
  expect('testWebhook 202', call($client, testWebhook => {webhook => $webhook, 'Idempotency-Key' => 'perl-test'})->res->code == 202);

  # An idempotent create and its replay, a second project, pagination by cursor.
  my $created = call($client, createProject => {'Idempotency-Key' => 'perl-create'}, json => {url => $site, name => 'Perl client'});
  my $replay  = call($client, createProject => {'Idempotency-Key' => 'perl-create'}, json => {url => $site, name => 'Perl client'});
  return unless expect('createProject 201', $created->res->code == 201, $created->res->json);
  my $project = $created->res->json->{data}{id};
  expect('replayed', ($replay->res->headers->header('Idempotent-Replayed') // '') eq 'true' && $replay->res->json->{data}{id} eq $project,
    $replay->res->headers->to_hash);
  call($client, createProject => {}, json => {url => "${site}second"});
  my $first = call($client, listProjects => {limit => 1});
  expect('a first page', $first->res->code == 200 && $first->res->json->{meta}{has_more}, $first->res->json->{meta});
  my $second = call($client, listProjects => {limit => 1, cursor => $first->res->json->{meta}{next_cursor}});
  expect('the next page', $second->res->code == 200 && $second->res->json->{data}[0]{id} ne $first->res->json->{data}[0]{id});

  # A read, its ETag, 304.
  my $read = call($client, getProject => {project => $project});
  my $etag = $read->res->headers->etag;
  expect('an ETag', $read->res->code == 200 && $etag);
  probe(getProject => $read,
    'a boolean sent as a string'   => sub ($res, $body) { $res->body(encode_json({data => {%{$body->{data}}, locked => 'true'}})) },
    'a required property left out' => sub ($res, $body) { my %d = %{$body->{data}}; delete $d{id}; $res->body(encode_json({data => \%d})) },
    'a required header left out'   => sub ($res, $body) { $res->headers->remove('ETag') },
    'an undocumented status'       => sub ($res, $body) { $res->code(418) },
  );
  expect('304', call($client, getProject => {project => $project, 'If-None-Match' => $etag})->res->code == 304);
  expect('updateProject', call($client, updateProject => {project => $project}, json => {name => 'Perl client, renamed'})->res->code == 200);

  # A campaign, created and patched.
  my $campaign = call($client, createCampaign => {project => $project}, json => {name => 'Perl', start_url => $site, max_depth => 5, max_urls => 50});
  return unless expect('createCampaign 201', $campaign->res->code == 201, $campaign->res->json);
  my $campaign_id = $campaign->res->json->{data}{id};
  expect('updateCampaign', call($client, updateCampaign => {campaign => $campaign_id}, json => {name => 'Perl, patched', max_depth => 5, regression_threshold => 'warning', notify => true})->res->code == 200);
  # Every property the document makes nullable in a request body, sent as null.
  my $nulls = call($client, updateCampaign => {campaign => $campaign_id},
    json => {map { ($_ => undef) } qw(include_patterns exclude_patterns issue_exclusion_patterns timeout retries duplication_threshold http_user http_password)});
  expect('updateCampaign with nulls', $nulls->res->code == 200, $nulls->res->json);
  expect('createProject, name null', call($client, createProject => {}, json => {url => "${site}third", name => undef})->res->code == 201);
  expect('updateWebhook, description null', call($client, updateWebhook => {webhook => $webhook}, json => {description => undef})->res->code == 200);
  expect('getCampaign', call($client, getCampaign => {campaign => $campaign_id})->res->code == 200);
  expect('listCampaigns', call($client, listCampaigns => {project => $project})->res->code == 200);

  # The crawl launch requires Idempotency-Key: without it the client refuses to send.
  refused($client, launchCrawl => {campaign => $campaign_id});
  my $crawl_once = sub ($key) {
    my $launched = call($client, launchCrawl => {campaign => $campaign_id, 'Idempotency-Key' => $key});
    return undef unless expect("launchCrawl $key 202", $launched->res->code == 202, $launched->res->json);
    my $crawl = $launched->res->json->{data}{id};
    wait_for("crawl $key to settle", sub { (call($client, getCrawl => {crawl => $crawl})->res->json // {})->{data}{stage_plan}{settled} });
    return $crawl;
  };
  my $crawl = $crawl_once->('perl-crawl-1') or return;
  expect('listCrawls', call($client, listCrawls => {project => $project})->res->code == 200);

  # Pages, filtered; a page by URL; its inlinks.
  my $pages = call($client, listCrawlPages => {crawl => $crawl, internal => 'true'});
  my @pages = @{($pages->res->json // {})->{data} || []};
  expect('internal pages', $pages->res->code == 200 && @pages && !grep { !$_->{is_internal} } @pages);
  # A JSON boolean in a query is sent as Mojo::Parameters writes it, `internal=1`: not `true` nor
  # `false`, refused with 422 (the query's booleans are spelt true and false); pass the strings.
  my $one = call($client, listCrawlPages => {crawl => $crawl, internal => true});
  expect('internal=1: 422', $one->res->code == 422 && ($one->req->url->query->param('internal') // '') eq '1', $one->res->json);
  my $by_status = call($client, listCrawlPages => {crawl => $crawl, status => '4xx', limit => 10});
  expect('4xx pages', $by_status->res->code == 200 && scalar @{$by_status->res->json->{data}});
  my ($home) = grep { defined $_->{depth} && $_->{depth} == 0 } @pages;
  expect('getCrawlPageByUrl', call($client, getCrawlPageByUrl => {crawl => $crawl, url => $home->{url}})->res->code == 200) if $home;
  expect('listCrawlPageInlinks', call($client, listCrawlPageInlinks => {crawl => $crawl, url => $home->{url}, limit => 1})->res->code == 200) if $home;

  # Issues with filters, their summary, pagespeed, scorecard, recommendations.
  my $issues = call($client, listCrawlIssues => {crawl => $crawl, limit => 100});
  expect('listCrawlIssues', $issues->res->code == 200);
  my ($issue) = @{$issues->res->json->{data} || []};
  if ($issue) {
    expect('issues by severity', call($client, listCrawlIssues => {crawl => $crawl, severity => $issue->{severity}})->res->code == 200);
    expect('issues by category and name',
      call($client, listCrawlIssues => {crawl => $crawl, category => $issue->{category}, name => $issue->{name}, limit => 5})->res->code == 200);
  }
  expect('getCrawlIssueSummary', call($client, getCrawlIssueSummary => {crawl => $crawl})->res->code == 200);
  expect('getCrawlPagespeed',    call($client, getCrawlPagespeed    => {crawl => $crawl})->res->code == 200);
  expect('getScorecard',         call($client, getScorecard         => {project => $project})->res->code == 200);
  expect('listCrawlRecommendations', call($client, listCrawlRecommendations => {crawl => $crawl})->res->code == 200);

  # The site changes; a second crawl and its changes (page changes: severity null).
  poke('site/version', '2');
  my $crawl2 = $crawl_once->('perl-crawl-2') or return;
  my $changes = call($client, listCrawlChanges => {crawl => $crawl2, limit => 100});
  my @page_changes = grep { $_->{kind} =~ /^page_|^status_|^redirect_/ } @{$changes->res->json->{data} || []};
  expect('page changes', $changes->res->code == 200 && scalar @page_changes, $changes->res->json);
  expect('changes by kind', call($client, listCrawlChanges => {crawl => $crawl2, kind => 'page_added'})->res->code == 200);
  expect('getCrawlChangesSummary', call($client, getCrawlChangesSummary => {crawl => $crawl2})->res->code == 200);

  # An export, polled until ready, downloaded.
  my $export = call($client, createExport => {crawl => $crawl2, 'Idempotency-Key' => 'perl-export'}, json => {format => 'xlsx'});
  if (expect('createExport 202', $export->res->code == 202, $export->res->json)) {
    my $id    = $export->res->json->{data}{id};
    my $ready = wait_for('the export', sub {
      my $state = (call($client, getExport => {export => $id})->res->json // {})->{data} // {};
      return ($state->{status} // '') =~ /^(ready|failed)$/ ? $state : undef;
    });
    if ($ready && expect('export ready', $ready->{status} eq 'ready', $ready)) {
      my $file = call($client, downloadExport => {export => $id});
      expect('downloadExport', $file->res->code == 200 && length $file->res->body);
    }
  }

  my $pdf = call($client, createExport => {crawl => $crawl2}, json => {format => 'pdf', branding => {agency_name => 'Perl agency'}});
  expect('createExport pdf 202', $pdf->res->code == 202, $pdf->res->json);

  # Tracked keywords, positions, Search Console (no provider configured: answered as such).
  my $tracked = call($client, trackKeywords => {project => $project, 'Idempotency-Key' => 'perl-track'}, json => {keywords => ['site audit', 'perl client']});
  expect('trackKeywords', $tracked->res->code == 200, $tracked->res->json);
  expect('pauseKeywords',  call($client, pauseKeywords  => {project => $project}, json => {keywords => ['perl client']})->res->code == 200);
  expect('resumeKeywords', call($client, resumeKeywords => {project => $project, 'Idempotency-Key' => 'perl-resume'}, json => {keywords => ['perl client']})->res->code == 200);
  call($client, checkKeyword => {project => $project, 'Idempotency-Key' => 'perl-check'}, json => {keyword => 'site audit'});
  expect('untrackKeywords', call($client, untrackKeywords => {project => $project}, json => {keywords => ['perl client']})->res->code == 200);
  expect('getPositions', call($client, getPositions => {project => $project})->res->code == 200);
  expect('getSearchConsole', call($client, getSearchConsole => {project => $project})->res->code == 200);

  # An access log (an extension): the body is the file itself, not JSON.
  my $ua_bot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
  my $log = join '', map {"66.249.66.1 - - [0$_/Mar/2026:08:15:00 +0000] \"GET /about HTTP/1.1\" 200 5120 \"-\" \"$ua_bot\"\n"} 1 .. 5;
  # OpenAPI::Client 1.07 sends a `body` without a Content-Type: it sets only the headers the
  # document declares as parameters, and the media type is not one. The server answers 415, as
  # documented; the client's after_build_tx event then names the type.
  my $bare = call($client, createLogImport => {project => $project}, body => $log);
  expect('createLogImport without a Content-Type: 415', $bare->res->code == 415, $bare->res->json);
  $client->once(after_build_tx => sub ($c, $tx) { $tx->req->headers->content_type('text/plain') });
  my $upload = call($client, createLogImport => {project => $project, 'Idempotency-Key' => 'perl-log'}, body => $log);
  if (expect('createLogImport 202', $upload->res->code == 202, $upload->res->json)) {
    my $import = $upload->res->json->{data}{id};
    my $done = wait_for('the log import', sub {
      my $data = (call($client, getLogImport => {project => $project, import => $import})->res->json // {})->{data} // {};
      return ($data->{status} // '') =~ /^(completed|failed)$/ ? $data : undef;
    });
    expect('the log import completed', $done && $done->{status} eq 'completed', $done);
    expect('listLogImports', call($client, listLogImports => {project => $project})->res->code == 200);
    expect('getLogInsights', call($client, getLogInsights => {project => $project})->res->code == 200);
    expect('listLogUrls', call($client, listLogUrls => {project => $project, limit => 10})->res->code == 200);
    expect('listLogDays', call($client, listLogDays => {project => $project})->res->code == 200);
    expect('listLogFindings', call($client, listLogFindings => {project => $project, kind => 'not_in_crawl'})->res->code == 200);
    expect('deleteLogImport', call($client, deleteLogImport => {project => $project, import => $import})->res->code == 204);
  }

  # A crawl that fails (nothing listens on port 1) and one stopped by deleting its campaign while
  # the site holds every answer: crawl.failed and crawl.stopped.
  my $dead = call($client, createProject => {}, json => {url => 'http://127.0.0.1:1/'});
  if (expect('a project on an unreachable site', $dead->res->code == 201, $dead->res->json)) {
    my $c = call($client, createCampaign => {project => $dead->res->json->{data}{id}},
      json => {name => 'Unreachable', start_url => 'http://127.0.0.1:1/', max_depth => 1, max_urls => 10});
    my $l = call($client, launchCrawl => {campaign => $c->res->json->{data}{id}, 'Idempotency-Key' => 'perl-failed'});
    my $ended = wait_for('the unreachable crawl to settle', sub {
      my $data = (call($client, getCrawl => {crawl => $l->res->json->{data}{id}})->res->json // {})->{data} // {};
      return $data->{stage_plan}{settled} ? $data : undef;
    });
    expect('the crawl failed', $ended && $ended->{status} eq 'failed', $ended);
  }
  poke('site/hold');
  my $held = call($client, createCampaign => {project => $project}, json => {name => 'Held', start_url => $site, max_depth => 2, max_urls => 10});
  my $held_crawl = call($client, launchCrawl => {campaign => $held->res->json->{data}{id}, 'Idempotency-Key' => 'perl-stopped'});
  wait_for('the held crawl to run', sub { ((call($client, getCrawl => {crawl => $held_crawl->res->json->{data}{id}})->res->json // {})->{data}{status} // '') eq 'running' });
  expect('deleteCampaign stops its crawl', call($client, deleteCampaign => {campaign => $held->res->json->{data}{id}})->res->code == 204);
  poke('site/release');

  # The catalogue of long operations, an answer in English.
  expect('listOperations', call($client, 'listOperations')->res->code == 200);
  my $english = call($client, getUsage => {'Accept-Language' => 'en-GB,en;q=0.9'});
  expect('Content-Language en', ($english->res->headers->header('Content-Language') // '') eq 'en', $english->res->headers->to_hash);

  # Errors: 403 (a scope missing, the plan), 429, 431, 401, 404, 422 with errors, 409 (an Idempotency-Key reused with another body), 400.
  my $forbidden = call($read_only, createProject => {}, json => {url => $site});
  expect('403 token.missing_scope', $forbidden->res->code == 403 && $forbidden->res->json->{code} eq 'token.missing_scope', $forbidden->res->json);
  expect('a read with the read-only token', call($read_only, listProjects => {limit => 1})->res->code == 200);
  my $plan = call($starter, createProject => {}, json => {url => $site});
  expect('403 api.write_not_in_plan', $plan->res->code == 403 && $plan->res->json->{code} eq 'api.write_not_in_plan', $plan->res->json);
  # A 403 is MissingScopeOrPlanProblem, a discriminator on code: a plan refusal without upgrade_to
  # (PlanProblem requires it, MissingScopeProblem does not name it) must be reported.
  probe(createProject => $plan,
    'a plan problem without upgrade_to' => sub ($res, $body) { my %b = %$body; delete $b{upgrade_to}; $res->body(encode_json(\%b)) });
  # The starter plan's 60 units a minute, spent: 429 with Retry-After (at most 80 reads).
  my $limited;
  for (1 .. 80) { last if ($limited = call($starter, 'getMe'))->res->code == 429 }
  expect('429 rate_limited', $limited->res->code == 429 && $limited->res->json->{code} eq 'rate_limited', $limited->res->json);
  # A header block above 16 KiB: 431, answered before any route.
  my $large = call($client, getMe => {'Accept-Language' => join ',', ('en-GB;q=0.5') x 1600});
  expect('431 request.headers_too_large', $large->res->code == 431, $large->res->json);
  my $anon = call($anonymous, 'getMe');
  expect('401', $anon->res->code == 401 && $anon->res->json->{code} eq 'unauthenticated', $anon->res->json);
  expect('404', call($client, getProject => {project => '00000000-0000-4000-8000-000000000000'})->res->code == 404);
  my $invalid = call($client, createProject => {}, json => {url => 'not a url'});
  expect('422 with errors', $invalid->res->code == 422 && scalar %{$invalid->res->json->{errors} || {}}, $invalid->res->json);
  my $conflict = call($client, createProject => {'Idempotency-Key' => 'perl-create'}, json => {url => "${site}other"});
  expect('409', $conflict->res->code == 409, $conflict->res->json);
  expect('400', call($client, listProjects => {cursor => 'not-a-cursor'})->res->code == 400);

  # The webhook's deliveries, then every body the receiver got, validated as WebhookEvent.
  my @every = qw(crawl.completed crawl.failed crawl.stopped export.ready recommendations.ready signal.detected webhook.test);
  my $got    = [];
  wait_for('the webhook bodies of every event type', sub {
    $got = $control->get("$env{CONTROL}/webhooks/perl")->res->json // [];
    my %types = map { ($_->{type} => 1) } @$got;
    return !grep { !$types{$_} } @every;
  }) or push @failures, 'webhook bodies received: ' . join ', ', sort map { $_->{type} } @$got;
  my $bodies = $got;
  expect('listWebhookDeliveries', call($client, listWebhookDeliveries => {webhook => $webhook, limit => 10})->res->code == 200);
  my $event = $validator->get('/components/schemas/WebhookEvent');
  my $event_errors = sub ($body) {
    local $validator->{validate_response} = 1;
    local $validator->{coerce} = {};
    return $validator->validate($body, $event);
  };
  for my $body (@$bodies) {
    $webhook_bodies++;
    push @violations, map {"webhook body $body->{type}: $_"} $event_errors->($body);
  }
  # Not blind either: a body of an unknown type, a body without its data.
  if (my ($one) = grep { $_->{type} eq 'crawl.completed' } @$bodies) {
    push @failures, 'the validation did not see a webhook body of an unknown type' unless $event_errors->({%$one, type => 'crawl.unknown'});
    push @failures, 'the validation did not see a webhook body without its data' unless $event_errors->({map { ($_ => $one->{$_}) } grep { $_ ne 'data' } keys %$one});
  }
  expect('rotateWebhookSecret', call($client, rotateWebhookSecret => {webhook => $webhook})->res->code == 200);
  expect('deleteWebhook 204', call($client, deleteWebhook => {webhook => $webhook})->res->code == 204);
  expect('deleteCampaign 204', call($client, deleteCampaign => {campaign => $campaign_id})->res->code == 204);
  expect('deleteProject 204 (the unreachable site)', call($client, deleteProject => {project => $dead->res->json->{data}{id}})->res->code == 204);
  expect('deleteProject 204', call($client, deleteProject => {project => $project})->res->code == 204);
}

my $started = time;
eval { flow(); 1 } or push @failures, "the flow stopped: $@";
report(sprintf "Perl OpenAPI::Client %s, JSON::Validator %s, Mojolicious %s, on %s (%.0f s)",
  $OpenAPI::Client::VERSION, $JSON::Validator::VERSION, $Mojolicious::VERSION, $document->basename, time - $started);
report(sprintf "%d answers validated (%d operations: statuses %s), %d webhook bodies validated, %d requests refused by the client as expected",
  $answers, scalar keys %operations, join(', ', map {"$_ x$statuses{$_}"} sort keys %statuses), $webhook_bodies, $refused_as_expected);
report(scalar(@violations) . ' violations');
report("  $_") for @violations;
report(scalar(@failures) . ' failed steps') if @failures;
report("  $_") for @failures;
exit(@violations || @failures ? 1 : 0);
