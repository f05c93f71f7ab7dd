#pragma once

#include "ui/web/api/ApiCall.h"

namespace outbox::web {

class ApiContext;

// A handler of a route: reads the call, has core do the work (on a database thread through
// `api`) and answers once through `done`. It never matches a path: ApiRoutes.cpp, the one route
// table, hands it the call with the path's parameters in `call.args`.
using ApiHandler = void(ApiContext& api, const ApiCall& call, ApiDone done);

// The controllers, one per resource, each defined in the file of its name in this folder.
// clang-format off
namespace SummaryController { ApiHandler summary, me; }
namespace AuthController { ApiHandler settings, token; }
namespace EventsController { ApiHandler list, blocked, show, trace; }
namespace FailureGroupsController { ApiHandler list; }
namespace FiltersController { ApiHandler list; }
namespace DeadLettersController { ApiHandler list, groups, show, edit, previewGroupEdit, editGroup; }
namespace AuditController { ApiHandler list, show; }
namespace JobsController { ApiHandler list, show, cancel; }
namespace ConsumersController { ApiHandler list; }
namespace InboxController { ApiHandler list; }
namespace FindingsController { ApiHandler show, act; }
namespace FleetController { ApiHandler list; }
namespace RelaysController { ApiHandler control; }
// Outside /api/v1: the pages and their files, /metrics, /ws without an upgrade, the runbooks.
namespace PagesController { ApiHandler dashboard, staticFile, console, consoleRedirect, signInAnswer; }
namespace MetricsController { ApiHandler exposition; }
namespace SocketController { ApiHandler notUpgraded; }
namespace RunbooksController { ApiHandler index, page; }
// clang-format on

} // namespace outbox::web
