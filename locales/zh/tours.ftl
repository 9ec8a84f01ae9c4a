# 导览 (src/ui/tours.rs)：每个导览的标题和简介，以及每一站的标题和原因。
# { $id } 是请求 id，{ $name } 是队友。

tour-the-request = 该请求
tour-the-teammate = 该队友

tour-without-protocols-title = 没有协议
tour-without-protocols-intro = 课程的起点：领导只能说“请停下”，然后祈祷。接着是同一个团队，用上关机握手。

tour-without-protocols-1-title = 只是一条消息：“请停下”
tour-without-protocols-1-why = 领导用第 9 课的方式请 { $name } 停下：只发一条普通消息。它没有 request_id，也不要求响应，所以回来的任何消息都无法与它对应。
tour-without-protocols-2-title = 领导无从得知
tour-without-protocols-2-why = 领导的这一轮结束了，既没有要等待的，也没有要检查的：没有 tracker 条目，没有 pending 状态。{ $name } 停下了吗？它无从得知。
tour-without-protocols-3-title = { $name } 读到“请停下”
tour-without-protocols-3-why = { $name } 看到了这句话，但没有任何协议规定它因此必须做什么，也没有人等它响应。它继续工作，而领导无论如何都得不到消息。
tour-without-protocols-4-title = { $name } 没有停下
tour-without-protocols-4-why = { $name } 完成工作后变为 idle——仍在循环中，随时会被下一条消息唤醒。“请停下”什么也没改变，也没人告诉领导。
tour-without-protocols-5-title = 有了握手：一个 request_id
tour-without-protocols-5-why = 现在领导调用 shutdown_request：tracker 把 { $name } 的 { $id } 记录为 pending，消息也携带 { $id }。{ $name } 的任何响应都会写明 { $id }，所以领导能对上号。
tour-without-protocols-6-title = 写明所属请求的响应
tour-without-protocols-6-why = { $name } 用针对 { $id } 的 shutdown_response 作出响应。这正是普通消息永远得不到的确认。
tour-without-protocols-7-title = 领导确切知道
tour-without-protocols-7-why = tracker 显示 { $id } 已 approved，config.json 显示 { $name } 是 shutdown：{ $name } 已确认，完成了这一轮并离开了循环。同样的团队，同样的停止请求——区别在于协议。

tour-shutdown-title = 优雅关机
tour-shutdown-intro = 从请求到确认的关机握手：为什么要 request_id，为什么 alice 在退出前完成她的这一轮。

tour-shutdown-1-title = 为什么要 request_id
tour-shutdown-1-why = 请求得到自己的 id { $id }，并以 pending 状态进入 shutdown_requests。一句简单的“好”可以是对任何事情的回答；带着 { $id } 的响应只针对这一个请求，无论同时有多少请求在途。
tour-shutdown-2-title = 请求不等于停止
tour-shutdown-2-why = { $name } 要到循环的下一轮、下一次调用模型之前才会读到请求。在 { $name } 响应之前，{ $id } 一直是 pending：领导已经提出请求，但还没有任何东西停下。
tour-shutdown-3-title = 最后一轮
tour-shutdown-3-why = 这是 { $name } 最后一次调用模型。关机在一个普通的轮次中处理：{ $name } 作出响应，工具调用完成，然后循环才结束。
tour-shutdown-4-title = pending → approved，只有一次
tour-shutdown-4-why = { $name } 批准 { $id }：唯一的状态机从 pending 变为 approved。approved 是终态；之后的任何响应都无法改变它。
tour-shutdown-5-title = 为什么退出前要完成这一轮
tour-shutdown-5-why = 只有在响应发出之后，{ $name } 才离开循环（config.json 中 working → shutdown）。这就是“优雅”之处：队友完成当前工作，而不是像强行终止线程那样被半途切断。
tour-shutdown-6-title = 按 request_id 匹配
tour-shutdown-6-why = 领导读到针对 { $id } 的 shutdown_response，并在 tracker 中找到 { $id }：它确切知道 { $name } 已经确认——这是一句普通的“请停下”永远得不到的确认。

tour-list-after-shutdown-title = 关机后的状态
tour-list-after-shutdown-intro = 完成的握手留下了什么：tracker 中一个已批准的请求，以及 config.json 中的一个状态。

tour-list-after-shutdown-1-title = 握手完成
tour-list-after-shutdown-1-why = { $name } 批准 { $id }。tracker 现在记录了约定的内容；config.json 即将记录发生的事。
tour-list-after-shutdown-2-title = 记录在 config.json 中
tour-list-after-shutdown-2-why = { $name } 的状态在名册（课程中的 config.json）里变为 shutdown。之后任何人都可以读取，而无需询问不再读消息的 { $name }。
tour-list-after-shutdown-3-title = 之后，一个新提示词
tour-list-after-shutdown-3-why = 用户向领导询问团队的状态。还是同一个团队：tracker 和名册比填充它们的提示词存在得更久。
tour-list-after-shutdown-4-title = 关机批准后的状态
tour-list-after-shutdown-4-why = list_teammates 读取 config.json：{ $name } 是 shutdown。领导可以信任它，因为它是在 { $name } 批准后离开循环时设置的，而不是从沉默中猜出来的。

tour-reject-plan-title = 拒绝有风险的计划
tour-reject-plan-intro = 计划审批：同样的 request_id 模式反过来用，以及一个在计划获批前由运行时一直关闭的闸门。

tour-reject-plan-1-title = 计划模式：由运行时把守的闸门
tour-reject-plan-1-why = { $name } 以计划模式创建。闸门由运行时强制执行，而不只是靠提示词：在 { $name } 的某个计划获批之前，write_file 和 edit_file 都返回错误，所以即使模型无视指令，也无法修改工作区。
tour-reject-plan-2-title = 同样的模式，方向相反
tour-reject-plan-2-why = { $name } 提交计划：plan_requests 中新增 pending 的 { $id }，计划带着 { $id } 发给领导。这就是反过来的关机握手：队友提出请求，领导作出响应。
tour-reject-plan-3-title = 被拒绝，附带反馈
tour-reject-plan-3-why = 领导拒绝 { $id } 并说明原因。rejected 是终态：{ $name } 无法把 { $id } 争回 pending，要继续就得修改后重新提交。
tour-reject-plan-4-title = 新计划，新 request_id
tour-reject-plan-4-why = 修改后的计划是一个新请求 { $id }。被拒绝的那个在 tracker 中仍是 rejected，所以每个裁决都留在它所针对的计划上。
tour-reject-plan-5-title = 闸门打开
tour-reject-plan-5-why = 领导批准 { $id }。从现在起运行时允许 { $name } 修改文件，因为 tracker 显示 approved。
tour-reject-plan-6-title = 现在写入成功了
tour-reject-plan-6-why = { $name } 的写入成功：运行时检查到 { $name } 有一个已批准的计划。在 { $id } 获批之前，同样的调用会被拒绝。

tour-approve-plan-title = 批准一个计划
tour-approve-plan-intro = 一个计划被提交、审阅并批准——以及为什么由运行时而不是提示词来决定 charlie 何时可以写入。

tour-approve-plan-1-title = 为什么由运行时把守闸门
tour-approve-plan-1-why = { $name } 以计划模式工作。提示词只能请求模型等待批准；这里是运行时本身拒绝修改工作区，直到 tracker 中有 { $name } 的一个已批准计划。
tour-approve-plan-2-title = 计划得到一个 request_id
tour-approve-plan-2-why = { $name } 的计划成为 plan_requests 中的请求 { $id }，状态 pending。领导的裁决会带着 { $id }，所以 { $name } 知道说的是哪个计划。
tour-approve-plan-3-title = 等待，而不是工作
tour-approve-plan-3-why = { $id } 处于 pending 时，{ $name } 什么也不能做：它变为 idle。领导的 plan_approval_response 会唤醒它。
tour-approve-plan-4-title = 领导审阅
tour-approve-plan-4-why = 计划作为带 { $id } 的 plan_approval_request 到达领导的收件箱；领导用写明 { $id } 的 plan_approval 作出响应。（课程把计划放在 plan_approval_response 下发送，这是一个命名错误，这里已修正。）
tour-approve-plan-5-title = 已批准
tour-approve-plan-5-why = 领导批准 { $id }：plan_requests 中 pending → approved，响应带着同一个 id 回到 { $name }。
tour-approve-plan-6-title = 运行时放行
tour-approve-plan-6-why = { $name } 写入文件，写入之所以成功，是因为运行时在 tracker 中找到了 { $name } 已批准的计划——而不是因为某个提示词说它可以。

tour-reject-then-accept-title = 忙碌的队友：先拒绝，再批准
tour-reject-then-accept-intro = 队友可以说不。为什么领导随后用一个新请求来询问，而不是对旧请求再响应一次。

tour-reject-then-accept-1-title = 任务进行中被询问
tour-reject-then-accept-1-why = 领导在 { $name } 还有文件要迁移时请它关机（{ $id }）。优雅关机是请求而不是命令：{ $name } 可以说不。
tour-reject-then-accept-2-title = 不——并给出理由
tour-reject-then-accept-2-why = { $name } 拒绝 { $id }，给出理由并继续工作。领导得知 { $name } 很忙以及原因；一句普通的“请停下”什么也不会告诉它。
tour-reject-then-accept-3-title = 为什么第二次响应会被拒绝
tour-reject-then-accept-3-why = 领导用一个新请求 { $id } 再问一次。第一个仍是 rejected：终态不可更改，所以对它的第二次响应会被拒绝并报错（课程的代码会悄悄覆盖它）。
tour-reject-then-accept-4-title = 最后一轮
tour-reject-then-accept-4-why = { $name } 最后一次调用模型：它刚读到新请求，并在这一轮中作出响应。工具调用在循环结束前完成，所以不会留下写到一半的东西。
tour-reject-then-accept-5-title = 这次是 approved
tour-reject-then-accept-5-why = { $name } 批准 { $id }：它的工作完成了，所以现在停下是安全的。tracker 保留了两个请求，一个 rejected，一个 approved。
tour-reject-then-accept-6-title = 然后它退出
tour-reject-then-accept-6-why = 响应发出后，{ $name } 离开循环：working → shutdown。队友在退出前完成了它的这一轮。

tour-out-of-order-title = 两个请求，乱序响应
tour-out-of-order-intro = 两个请求同时在途，响应顺序与请求顺序相反——每个响应仍然落到它自己的请求上。

tour-out-of-order-1-title = 两个在途请求：第一个
tour-out-of-order-1-why = 领导先用请求 { $id } 询问 { $name }，不等响应就去问下一个队友。
tour-out-of-order-2-title = ……以及第二个
tour-out-of-order-2-why = 然后是 { $name }，请求 { $id }。两个关机请求同时处于 pending，所以每个响应都必须说明它响应的是哪个请求。
tour-out-of-order-3-title = 乱序到达的响应
tour-out-of-order-3-why = { $name } 先响应了 { $id }，虽然 { $name } 是第二个被询问的：另一个队友还在完成它的工作。响应到达的顺序并不能说明它们属于哪个请求。
tour-out-of-order-4-title = 按 request_id 而不是按顺序匹配
tour-out-of-order-4-why = 领导在 shutdown_requests 中查找 { $id }，找到 { $name } 的条目。如果按到达顺序匹配响应，它就会把这当成第一个队友的响应。
tour-out-of-order-5-title = 另一个响应，稍后到达
tour-out-of-order-5-why = { $name } 完成工作后最后响应 { $id }。它仍然落在正确的条目上：起决定作用的是 id，而不是顺序。
tour-out-of-order-6-title = 两次握手都完成了
tour-out-of-order-6-why = { $name } 也离开了循环。两个请求都已批准，每个都通过 request_id 与它自己的队友对应。
