package org.eeoutbox.it.outbox;

import java.util.Map;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.Deployments;
import org.eeoutbox.it.support.FailedDeployment;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The admin REST API turned on without its roles refuses to start: the deployment fails naming both properties. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AdminApiWithoutRolesIT {

    private static final String NO_ROLES = "admin-without-roles";
    private static final String PROBLEM = "outbox.admin.rest.enabled=true needs outbox.admin.rest.viewer-role and "
            + "outbox.admin.rest.operator-role";

    @Deployment(name = NO_ROLES, managed = false)
    static WebArchive deployment() {
        return Deployments.addLibrariesOf(TestApps.war(NO_ROLES, Map.of("outbox.admin.rest.enabled", "true")),
                "org.eeoutbox.admin.rest.AdminRestSettingsProvider");
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    void enablingTheAdminApiWithoutRolesFailsTheDeploymentNamingThem() {
        FailedDeployment.assertFailsNaming(deployer, NO_ROLES, PROBLEM);
    }
}
